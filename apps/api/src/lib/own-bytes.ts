/**
 * `text` as UTF-8 in a buffer of its own, for bytes kept long (cached pages and searched
 * bounties, decision 0029): Buffer.from puts short texts in shared 8 KB slabs, and one kept
 * page would hold its whole slab after the pages beside it are dropped.
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text, 'utf8');
  return bytes;
}
