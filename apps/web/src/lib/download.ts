import { errorDetailsOf } from '@tay/contract';
import { ApiError, authHeaders, buildUrl, type RequestOptions } from './api-client';

/**
 * Downloads a file the API makes (CSV exports, images, PDFs) with the session's bearer token,
 * which a plain link cannot carry, under the name the server gives it.
 */
export async function downloadFile(path: string, query: RequestOptions['query'], fallbackName: string): Promise<void> {
  const response = await fetch(buildUrl(path, query), { headers: authHeaders() });
  if (!response.ok) throw new ApiError(response.status, 'EXPORT_FAILED', 'The export could not be made. Please try again.');
  saveFile(await response.blob(), /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName);
}

/** Has the browser save `blob` as `name` (a link clicked for the person; the object URL freed after). */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Reads a file the API makes (an image, a PDF) with the session's bearer token, for a preview on
 * the page (shown through an object URL). A refusal reads as the server's own message.
 */
export async function fetchFile(path: string, query: RequestOptions['query'], signal?: AbortSignal): Promise<Blob> {
  const response = await fetch(buildUrl(path, query), { headers: authHeaders(), ...(signal ? { signal } : {}) });
  if (!response.ok) {
    const details = errorDetailsOf(await response.json().catch(() => null));
    throw new ApiError(response.status, details?.code ?? 'FILE_FAILED', details?.message ?? 'The file could not be loaded. Please try again.');
  }
  return response.blob();
}
