import { fileURLToPath } from 'node:url';

// Views and assets are read from src/ui/ whether this runs from src/ (tests) or dist/ (npm start):
// both sit two levels below the project root, and dist/ holds only compiled JavaScript.
export const UI_DIR = fileURLToPath(new URL('../../src/ui/', import.meta.url));
