/**
 * The build writes source maps beside the web app's scripts, for development. In production the
 * static files get no route for them (`plugins/web.ts`), and a request for one, however it is
 * written, is answered 404 as for any file that is not there (ADR 023). Nothing runs on other requests.
 */

/** `/assets/index-abc.js.map`, also written `%2Emap` or `.MAP`, which the static files would decode or match. */
export function isSourceMapPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not decodable: the static files could not serve it either; judge it as written.
  }
  return /\.map$/i.test(path) || /\.map$/i.test(decoded);
}
