// Files a person gives the builder: dropped on a zone (highlighted while they hover) or chosen,
// read as base64 for the JSON the builder's actions take.

/** Files dropped on any of `targets` go to `take`; `zone` shows where they may be dropped. */
export function acceptDrops(targets, zone, take) {
  for (const target of targets) {
    target.addEventListener('dragover', (event) => {
      event.preventDefault();
      zone.classList.add('over');
    });
    target.addEventListener('dragleave', () => zone.classList.remove('over'));
    target.addEventListener('drop', (event) => {
      event.preventDefault();
      zone.classList.remove('over');
      take([...(event.dataTransfer?.files ?? [])]);
    });
  }
}

/** A file's bytes as base64. */
export const base64Of = (file) =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',', 2)[1] ?? '');
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
