/**
 * Saves a file the API answers to a signed-in caller (a 1099-NEC PDF, a NACHA file, a CSV):
 * fetched with the session's token, then handed to the browser as a download. Answers the
 * HTTP status (0 when the network failed).
 */
import { getToken } from './api-client';
import { apiBaseUrl } from './config';

export async function downloadFile(path: string, fileName: string): Promise<number> {
  const token = getToken();
  let res: Response;
  try {
    res = await fetch(`${apiBaseUrl()}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  } catch {
    return 0;
  }
  if (!res.ok) return res.status;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return res.status;
}
