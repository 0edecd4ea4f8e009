// Pictures without external assets: line icons and illustrations drawn as inline SVG, coloured by
// the site's stylesheet (classes, not fixed colours), so a new palette or a dark theme recolours
// them. Each kind has a motif (a loaf, a camera, a tooth …) that its hero and cards are drawn from.

/** 24×24 line drawings (stroke only). */
const ICONS = {
  bread:
    '<path d="M4 11c0-3.5 3.6-6 8-6s8 2.5 8 6c0 1.2-.8 2-2 2v6H6v-6c-1.2 0-2-.8-2-2z"/><path d="M9 9l1 3M13 8.5l1 3"/>',
  plate: '<circle cx="12" cy="12" r="7"/><circle cx="12" cy="12" r="4"/><path d="M2 4v6M2 7h1.5M22 4v16"/>',
  cup: '<path d="M5 9h11v5a5 5 0 0 1-5 5h-1a5 5 0 0 1-5-5z"/><path d="M16 10h1.5a2.5 2.5 0 0 1 0 5H16M8 3c0 1.5 1 1.5 1 3M12 3c0 1.5 1 1.5 1 3"/>',
  glass: '<path d="M6 3h12l-6 8zM12 11v8M8 21h8"/><path d="M8.5 6h7"/>',
  camera:
    '<rect x="3" y="7" width="18" height="13" rx="2"/><circle cx="12" cy="13.5" r="3.5"/><path d="M8 7l1.5-3h5L16 7"/>',
  palette:
    '<path d="M12 3a9 9 0 1 0 0 18c1.5 0 2-1 2-2s-1-1.5-1-2.5S14 15 15 15h2a4 4 0 0 0 4-4c0-4.4-4-8-9-8z"/><circle cx="7.5" cy="11" r="1"/><circle cx="10" cy="7" r="1"/><circle cx="15" cy="7.5" r="1"/>',
  tooth:
    '<path d="M7 3c-2.5 0-4 2-4 4.5 0 3 1.5 4.5 2 7.5.4 2.8 1 6 2.5 6S9 17 12 17s3 4 4.5 4 2.1-3.2 2.5-6c.5-3 2-4.5 2-7.5C21 5 19.5 3 17 3c-2 0-3 1-5 1S9 3 7 3z"/>',
  cross: '<path d="M9 3h6v6h6v6h-6v6H9v-6H3V9h6z"/>',
  leaf: '<path d="M5 19C5 10 10 5 20 4c-1 10-6 15-15 15z"/><path d="M5 19l8-8"/>',
  paw: '<circle cx="6" cy="10" r="2"/><circle cx="10" cy="6" r="2"/><circle cx="14" cy="6" r="2"/><circle cx="18" cy="10" r="2"/><path d="M8 17c0-3 2-5 4-5s4 2 4 5c0 2-2 2.5-4 2.5S8 19 8 17z"/>',
  scissors:
    '<circle cx="6" cy="7" r="3"/><circle cx="6" cy="17" r="3"/><path d="M8.5 8.5L20 19M8.5 15.5L20 5"/>',
  dumbbell: '<path d="M6 8v8M18 8v8M3 10v4M21 10v4M6 12h12"/>',
  lotus:
    '<path d="M12 5c2 2.5 2 6.5 0 10-2-3.5-2-7.5 0-10z"/><path d="M12 15c-3 0-6-2-8-5 3 0 6 1.5 8 5zM12 15c3 0 6-2 8-5-3 0-6 1.5-8 5zM4 19h16"/>',
  wrench:
    '<path d="M14.5 4a5 5 0 0 0 4.9 6.2L20 10l-9.5 9.5a2.1 2.1 0 0 1-3-3L17 7l-.2-.6A5 5 0 0 0 14.5 4z"/>',
  sparkle:
    '<path d="M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 16l.8 2.2L22 19l-2.2.8L19 22l-.8-2.2L16 19l2.2-.8z"/>',
  car: '<path d="M3 16v-4l2-5h14l2 5v4z"/><circle cx="7.5" cy="16.5" r="2"/><circle cx="16.5" cy="16.5" r="2"/><path d="M5 12h14"/>',
  chart: '<path d="M4 20V4M4 20h16"/><path d="M7 16l4-5 3 3 5-7"/>',
  phone: '<rect x="7" y="2.5" width="10" height="19" rx="2.5"/><path d="M11 18.5h2"/>',
  spark: '<path d="M13 2L4 14h7l-1 8 9-12h-7z"/>',
  compass: '<circle cx="12" cy="12" r="9"/><path d="M15.5 8.5l-2 5-5 2 2-5z"/>',
  scales: '<path d="M12 3v18M7 21h10M4 7h16M4 7l-2.5 6a3 3 0 0 0 5 0zM20 7l-2.5 6a3 3 0 0 0 5 0z"/>',
  house: '<path d="M3 11l9-7 9 7M5 9.5V20h14V9.5"/><path d="M10 20v-6h4v6"/>',
  bed: '<path d="M3 18V6M3 14h18v4M21 14v-3a3 3 0 0 0-3-3h-7v6"/><circle cx="7" cy="11" r="2"/>',
  flower:
    '<circle cx="12" cy="9" r="2.5"/><path d="M12 6.5c0-3 3-3 3-1.5S13.5 8 12 8M14.5 9c3 0 3 3 1.5 3S13 10.5 13 9M12 11.5c0 3-3 3-3 1.5s1.5-3 3-3M9.5 9c-3 0-3-3-1.5-3S11 7.5 11 9M12 11.5V21M12 17c2-2 4-2 5-2M12 18c-2-2-4-2-5-2"/>',
  book: '<path d="M4 5a2 2 0 0 1 2-2h13v16H6a2 2 0 0 0-2 2z"/><path d="M4 21a2 2 0 0 1 2-2h13v2"/>',
  bag: '<path d="M5 8h14l-1 13H6z"/><path d="M9 8V6a3 3 0 0 1 6 0v2"/>',
  calendar:
    '<rect x="3" y="5" width="18" height="16" rx="2"/><path d="M3 10h18M8 3v4M16 3v4M8 14h2M14 14h2M8 17h2"/>',
  note: '<path d="M9 18V5l11-2v13"/><circle cx="6" cy="18" r="3"/><circle cx="17" cy="16" r="3"/>',
  cap: '<path d="M2 9l10-5 10 5-10 5z"/><path d="M6 11v5c0 1.5 3 3 6 3s6-1.5 6-3v-5M22 9v6"/>',
  heart: '<path d="M12 20s-8-5-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 9c0 6-8 11-8 11z"/>',
  building: '<path d="M4 21V7l8-4 8 4v14z"/><path d="M9 21v-4h6v4M8 10h2M14 10h2M8 13.5h2M14 13.5h2"/>',
  check: '<circle cx="12" cy="12" r="9"/><path d="M8 12.5l3 3 5-6"/>',
  chat: '<path d="M4 5h16v11H9l-5 4z"/><path d="M8 9h8M8 12h5"/>',
  clock: '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>',
  pin: '<path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z"/><circle cx="12" cy="9.5" r="2.5"/>',
  mail: '<rect x="3" y="5" width="18" height="14" rx="2"/><path d="M3 7l9 6 9-6"/>',
  call: '<path d="M5 3h4l2 5-2.5 1.5a11 11 0 0 0 6 6L16 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 5a2 2 0 0 1 2-2z"/>',
  image:
    '<rect x="3" y="4" width="18" height="16" rx="2"/><circle cx="9" cy="9.5" r="2"/><path d="M3 17l5-5 4 4 3-3 6 6"/>',
  users:
    '<circle cx="9" cy="8" r="3.5"/><path d="M2.5 20c0-3.5 3-6 6.5-6s6.5 2.5 6.5 6M16 4.5a3.5 3.5 0 0 1 0 7M18 14c2 .6 3.5 2.8 3.5 6"/>',
} as const;

export type IconId = keyof typeof ICONS;
export type MotifId = Extract<
  IconId,
  | 'bread'
  | 'plate'
  | 'cup'
  | 'glass'
  | 'camera'
  | 'palette'
  | 'tooth'
  | 'cross'
  | 'leaf'
  | 'paw'
  | 'scissors'
  | 'dumbbell'
  | 'lotus'
  | 'wrench'
  | 'sparkle'
  | 'car'
  | 'chart'
  | 'phone'
  | 'spark'
  | 'compass'
  | 'scales'
  | 'house'
  | 'bed'
  | 'flower'
  | 'book'
  | 'bag'
  | 'calendar'
  | 'note'
  | 'cap'
  | 'heart'
  | 'building'
>;

/** A decorative icon (hidden from assistive technology: the text next to it says the same). */
export function icon(id: IconId, className = 'icon'): string {
  return `<svg class="${className}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[id]}</svg>`;
}

/** The icons of a kind's three offers: its motif, then two that fit any business. */
export function offerIcons(motif: MotifId): IconId[] {
  return [motif, 'check', 'chat'];
}

/**
 * The hero's illustration: the motif drawn large over soft shapes and a dot pattern. `seed` varies
 * the composition (gallery tiles use several).
 */
export function illustration(motif: MotifId, seed = 0, label?: string): string {
  const r = (n: number) => ((seed * 37 + n * 53) % 97) / 97;
  const a11y = label ? `role="img" aria-label="${label}"` : 'aria-hidden="true" focusable="false"';
  return `<svg class="art" viewBox="0 0 400 300" ${a11y}>
  <rect class="art-bg" width="400" height="300" rx="24"/>
  <circle class="art-a" cx="${Math.round(80 + r(1) * 240)}" cy="${Math.round(60 + r(2) * 80)}" r="${Math.round(70 + r(3) * 40)}"/>
  <rect class="art-b" x="${Math.round(40 + r(4) * 160)}" y="${Math.round(140 + r(5) * 40)}" width="${Math.round(150 + r(6) * 80)}" height="110" rx="55"/>
  <g class="art-dots">${Array.from({ length: 24 }, (_, i) => `<circle cx="${30 + (i % 6) * 16}" cy="${30 + Math.floor(i / 6) * 16}" r="2.5"/>`).join('')}</g>
  <g class="art-line" transform="translate(${Math.round(130 + r(7) * 60)} ${Math.round(60 + r(8) * 30)}) scale(6.5)">${ICONS[motif]}</g>
</svg>`;
}
