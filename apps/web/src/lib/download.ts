import { ApiError, authHeaders, buildUrl, type RequestOptions } from './api-client';

/**
 * Downloads a file the API makes (CSV exports) with the session's bearer token, which a plain
 * link cannot carry, under the name the server gives it.
 */
export async function downloadFile(path: string, query: RequestOptions['query'], fallbackName: string): Promise<void> {
  const response = await fetch(buildUrl(path, query), { headers: authHeaders() });
  if (!response.ok) throw new ApiError(response.status, 'EXPORT_FAILED', 'The export could not be made. Please try again.');
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
