/** Helpers of the account specs: seeded users with a handle, a generated PNG, media probing. */
import zlib from 'node:zlib';
import { api, registerCreator, registerMember, setHandle, type Seeded } from './api';
import { API_URL } from './env';
import { uniqueHandle } from './session';

export async function creatorWithHandle(): Promise<Seeded & { handle: string }> {
  const c = await registerCreator();
  const handle = uniqueHandle('c');
  const status = await setHandle(c.token, handle);
  if (status !== 200) throw new Error(`PUT /user/handle answered ${status}`);
  return { ...c, handle };
}

export async function memberWithHandle(): Promise<Seeded & { handle: string }> {
  const m = await registerMember();
  const handle = uniqueHandle('m');
  const status = await setHandle(m.token, handle);
  if (status !== 200) throw new Error(`PUT /user/handle answered ${status}`);
  return { ...m, handle };
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A real PNG: a diagonal gradient in the product's pink and yellow. */
export function gradientPng(size = 96): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size);
      row[1 + x * 3] = Math.round(0xd8 + (0xff - 0xd8) * t);
      row[2 + x * 3] = Math.round(0x3e + (0xc9 - 0x3e) * t);
      row[3 + x * 3] = Math.round(0x86 + (0x47 - 0x86) * t);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads through POST /media/image; resolves with the status and key. */
export async function uploadPng(
  token: string,
  endpoint: 'image' | 'identity' = 'image',
): Promise<{ status: number; key?: string }> {
  const res = await fetch(`${API_URL}/media/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'image/png', authorization: `Bearer ${token}` },
    body: new Uint8Array(gradientPng()),
  });
  const body = (await res.json().catch(() => ({}))) as { key?: string };
  return { status: res.status, key: body.key };
}

/** True when the media pipeline answers uploads (it is another feature's), public or private. */
export async function mediaAvailable(endpoint: 'image' | 'identity' = 'image'): Promise<boolean> {
  try {
    const c = await registerCreator();
    return (await uploadPng(c.token, endpoint)).status === 200;
  } catch {
    return false;
  }
}

export { api };
