#!/usr/bin/env node
/**
 * Draws the app icon (a curved track on the brand blue with a drop of lubricant) as SVG and
 * renders the PNGs the web app manifest and iOS need into web/public/icons/. The outputs are
 * committed; run `node scripts/make-icons.mjs` again only when the design changes.
 *
 * - icon-192.png, icon-512.png: purpose "any", a rounded square with transparent corners.
 * - icon-maskable-512.png: purpose "maskable", full-bleed background, artwork inside the
 *   central 80% circle that every launcher mask keeps.
 * - apple-touch-icon.png (180): full bleed, iOS rounds the corners itself.
 * - web/public/favicon.svg: the same artwork for browser tabs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const publicDir = path.join(root, 'web', 'public');
const iconDir = path.join(publicDir, 'icons');

const BRAND = '#1e3a8a';
const SLEEPER = '#93c5fd';
const RAIL = '#ffffff';
const DROP = '#f59e0b';

/** Points on a circle around (cx, cy); angles in degrees, 0 = right, 90 = down. */
function polar(cx, cy, r, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [cx + r * Math.cos(a), cy + r * Math.sin(a)].map((n) => Number(n.toFixed(2)));
}

/** The track bends around a centre below and right of the artwork. */
function artwork() {
  const cx = 430;
  const cy = 470;
  const inner = 210;
  const outer = 290;
  const sleepers = [];
  for (let deg = 188; deg <= 268; deg += 13) {
    const [x1, y1] = polar(cx, cy, inner - 28, deg);
    const [x2, y2] = polar(cx, cy, outer + 28, deg);
    sleepers.push(`<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" />`);
  }
  const arc = (r) => {
    const [x1, y1] = polar(cx, cy, r, 180);
    const [x2, y2] = polar(cx, cy, r, 270);
    return `<path d="M ${x1} ${y1} A ${r} ${r} 0 0 1 ${x2} ${y2}" />`;
  };
  // A drop of lubricant falling onto the outer rail.
  const drop = 'M 0 -78 C 18 -48 52 -14 52 22 A 52 52 0 0 1 -52 22 C -52 -14 -18 -48 0 -78 Z';
  return `
    <g stroke="${SLEEPER}" stroke-width="20" stroke-linecap="round">${sleepers.join('')}</g>
    <g fill="none" stroke="${RAIL}" stroke-width="26" stroke-linecap="round">${arc(inner)}${arc(outer)}</g>
    <path d="${drop}" transform="translate(150 150)" fill="${DROP}" stroke="${BRAND}" stroke-width="10" />`;
}

/**
 * @param {{ rounded: boolean, scale: number }} options rounded: transparent corners;
 *   scale: artwork size about the centre (maskable icons keep it in the safe zone).
 */
function iconSvg({ rounded, scale }) {
  const clip = rounded ? '<clipPath id="c"><rect width="512" height="512" rx="96" /></clipPath>' : '<clipPath id="c"><rect width="512" height="512" /></clipPath>';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
  <defs>${clip}</defs>
  <g clip-path="url(#c)">
    <rect width="512" height="512" fill="${BRAND}" />
    <g transform="translate(256 256) scale(${scale}) translate(-256 -256)">${artwork()}</g>
  </g>
</svg>
`;
}

async function png(svg, size, file) {
  await sharp(Buffer.from(svg)).resize(size, size).png({ compressionLevel: 9 }).toFile(path.join(iconDir, file));
  console.log(`wrote web/public/icons/${file} (${size}x${size})`);
}

mkdirSync(iconDir, { recursive: true });
const any = iconSvg({ rounded: true, scale: 1 });
// The maskable safe zone is a circle of 40% of the size around the centre.
const maskable = iconSvg({ rounded: false, scale: 0.7 });
const apple = iconSvg({ rounded: false, scale: 0.86 });

await png(any, 192, 'icon-192.png');
await png(any, 512, 'icon-512.png');
await png(maskable, 512, 'icon-maskable-512.png');
await png(apple, 180, 'apple-touch-icon.png');
writeFileSync(path.join(publicDir, 'favicon.svg'), any);
console.log('wrote web/public/favicon.svg');
