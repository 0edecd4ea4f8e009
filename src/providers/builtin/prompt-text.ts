// A piece of a prompt as the brief keeps it: one line, no surrounding punctuation or quotes, at most 80 characters.
export const clean = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:'"“”]+|[\s,.;:'"“”!?]+$/g, '')
    .slice(0, 80);
