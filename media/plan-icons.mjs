// Writes the plan-on-code gutter icons (media/plan-<action>[-stale]-<theme>.svg): Terraform's symbol per action, in
// the colour the default light and dark themes give client/src/planOverlay/verdictLook.ts's theme colour (an image
// cannot take a theme colour), and a dimmed twin for a stale overlay. Run `node media/plan-icons.mjs` after a change.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const colours = {
  added: { dark: '#81b88b', light: '#587c0c' },
  modified: { dark: '#e2c08d', light: '#895503' },
  deleted: { dark: '#c74e39', light: '#ad0707' },
  neutral: { dark: '#8c8c8c', light: '#8e8e90' },
};

// 16×16 strokes, round caps: legible at the glyph margin's size.
const glyphs = {
  create: { colour: 'added', width: 2, paths: ['M8 3v10', 'M3 8h10'] },
  update: { colour: 'modified', width: 2, paths: ['M2.5 9.5c1.6-3.2 3.6-3.4 5.5-1.5s3.9 1.7 5.5-1.5'] },
  replace: { colour: 'deleted', width: 1.6, paths: ['M1.2 8h3.3', 'M5.8 12.6l3.4-9.2', 'M13 5.3v5.4', 'M10.3 8h5.4'] },
  delete: { colour: 'deleted', width: 2, paths: ['M3 8h10'] },
  read: { colour: 'neutral', width: 1.6, paths: ['M6.2 4L2.2 8l4 4', 'M8.6 6.4h5.6', 'M8.6 9.6h5.6'] },
  'no-op': { colour: 'neutral', width: 0, paths: [], dot: true },
};

const here = path.dirname(new URL(import.meta.url).pathname);
for (const [action, glyph] of Object.entries(glyphs)) {
  for (const theme of ['dark', 'light']) {
    for (const stale of [false, true]) {
      const colour = colours[glyph.colour][theme];
      const body = glyph.dot
        ? `<circle cx="8" cy="8" r="2" fill="${colour}"/>`
        : `<path d="${glyph.paths.join(' ')}" fill="none" stroke="${colour}" stroke-width="${glyph.width}" stroke-linecap="round" stroke-linejoin="round"/>`;
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><g${stale ? ' opacity="0.4"' : ''}>${body}</g></svg>\n`;
      writeFileSync(path.join(here, `plan-${action}${stale ? '-stale' : ''}-${theme}.svg`), svg);
    }
  }
}
