/** Distinct, pleasant images rendered locally with sharp from SVG (no network). */
import { loadSharp } from '../modules/media/media.processor';
import { rng } from './random';

const PALETTES: [string, string, string][] = [
  ['#d83e86', '#ffc947', '#08bce3'],
  ['#0f2027', '#2c5364', '#e3ed44'],
  ['#ff7e5f', '#feb47b', '#2b5876'],
  ['#4568dc', '#b06ab3', '#ffd200'],
  ['#11998e', '#38ef7d', '#fc466b'],
  ['#fc5c7d', '#6a82fb', '#f9d423'],
  ['#232526', '#414345', '#08bce3'],
  ['#e96443', '#904e95', '#c9ffbf'],
  ['#00b4db', '#0083b0', '#ffc947'],
  ['#f7971e', '#ffd200', '#3a1c71'],
  ['#8e2de2', '#4a00e0', '#38ef7d'],
  ['#ee0979', '#ff6a00', '#1cb5e0'],
];

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An SVG with a gradient sky, a few shapes and an optional caption. */
export function artSvg(seed: number, width: number, height: number, caption?: string): string {
  const rand = rng(seed * 7919 + 13);
  const [a, b, accent] = PALETTES[seed % PALETTES.length]!;
  const angle = Math.floor(rand() * 360);
  const shapes: string[] = [];
  const count = 4 + Math.floor(rand() * 6);
  for (let i = 0; i < count; i++) {
    const x = Math.floor(rand() * width);
    const y = Math.floor(rand() * height);
    const r = Math.floor((0.05 + rand() * 0.25) * Math.min(width, height));
    const opacity = (0.15 + rand() * 0.5).toFixed(2);
    const fill = rand() < 0.5 ? accent : '#ffffff';
    if (rand() < 0.6) {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" opacity="${opacity}"/>`);
    } else {
      const rot = Math.floor(rand() * 90);
      shapes.push(
        `<rect x="${x - r}" y="${y - r}" width="${r * 2}" height="${r * 2}" rx="${Math.floor(r / 5)}" fill="${fill}" opacity="${opacity}" transform="rotate(${rot} ${x} ${y})"/>`,
      );
    }
  }
  // A horizon of hills gives every picture a little landscape.
  const hill = Array.from({ length: 7 }, (_, i) => {
    const x = Math.floor((i / 6) * width);
    const y = Math.floor(height * (0.62 + rand() * 0.2));
    return `${x},${y}`;
  }).join(' ');
  // Near the top, within a square crop of either orientation: the feed's tiles show a vote
  // chip over the bottom-left corner of every picture.
  const text = caption
    ? `<text x="50%" y="${Math.floor(height * 0.2)}" font-family="DejaVu Sans, sans-serif" font-size="${Math.floor(height / 14)}" font-weight="bold" fill="#ffffff" text-anchor="middle" opacity="0.92">${escapeXml(caption)}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)">
<stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
${shapes.join('\n')}
<polygon points="0,${height} ${hill} ${width},${height}" fill="#161618" opacity="0.55"/>
${text}
</svg>`;
}

/** The picture as a JPEG, as a phone would upload it. */
export async function artJpeg(
  seed: number,
  width: number,
  height: number,
  caption?: string,
): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(artSvg(seed, width, height, caption)))
    .jpeg({ quality: 86 })
    .toBuffer();
}
