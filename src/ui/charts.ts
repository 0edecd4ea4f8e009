// Charts drawn on the server as SVG: readable without any script, and accessible (a title and a
// description for screen readers, plus the numbers in a table next to each chart in the pages).
// Every label passes through escapeHtml: paths and referrers are typed by visitors of the sites.
import { escapeHtml } from '../lib/html.ts';

const W = 640;
const H = 200;
const PAD = { top: 12, right: 12, bottom: 28, left: 40 };

/** A line chart of daily views. */
export function lineChart(points: { date: string; views: number }[], label: string): string {
  const max = Math.max(1, ...points.map((p) => p.views));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length <= 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const line = points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(p.views).toFixed(1)}`)
    .join(' ');
  const area = points.length
    ? `${line} L${x(points.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z`
    : '';
  const total = points.reduce((sum, p) => sum + p.views, 0);
  const ticks = [0, Math.round(max / 2), max].filter((v, i, all) => all.indexOf(v) === i);
  const first = points[0]?.date ?? '';
  const last = points[points.length - 1]?.date ?? '';
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="none">
<title id="chart-title">${escapeHtml(label)}</title>
<desc id="chart-desc">${total} views from ${escapeHtml(first)} to ${escapeHtml(last)}; the busiest day had ${max === 1 && total === 0 ? 0 : max}.</desc>
${ticks.map((t) => `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/><text class="axis" x="${PAD.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${t}</text>`).join('')}
<path class="area" d="${area}"/><path class="line" d="${line}"/>
<text class="axis" x="${PAD.left}" y="${H - 8}">${escapeHtml(first)}</text><text class="axis" x="${W - PAD.right}" y="${H - 8}" text-anchor="end">${escapeHtml(last)}</text>
</svg>`;
}

/** Horizontal bars (top pages, referrers, devices). */
export function barChart(rows: { label: string; value: number }[], label: string): string {
  if (rows.length === 0) return `<p class="muted">No data yet.</p>`;
  const max = Math.max(1, ...rows.map((r) => r.value));
  const rowH = 28;
  const height = rows.length * rowH;
  const labelW = 200;
  const barW = W - labelW - 60;
  const bars = rows
    .map((r, i) => {
      const w = Math.max(2, (r.value / max) * barW);
      const ty = i * rowH + 18;
      const name = r.label.length > 32 ? `${r.label.slice(0, 31)}…` : r.label;
      return `<text class="bar-label" x="0" y="${ty}">${escapeHtml(name)}</text><rect class="bar" x="${labelW}" y="${i * rowH + 6}" width="${w.toFixed(1)}" height="16" rx="3"/><text class="bar-value" x="${(labelW + w + 6).toFixed(1)}" y="${ty}">${r.value}</text>`;
    })
    .join('');
  return `<svg class="chart bars" viewBox="0 0 ${W} ${height}" role="img" aria-label="${escapeHtml(label)}">${bars}</svg>`;
}
