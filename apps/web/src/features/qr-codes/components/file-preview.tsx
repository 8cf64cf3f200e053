import { Box } from '@mantine/core';
import { useEffect, useRef, type CSSProperties } from 'react';

/**
 * Shows a file read with the session's token (an image, a PDF) through an object URL, made when
 * the file arrives and revoked when it is replaced or the preview goes. The URL is set on the
 * element itself, so a remount (React's strict mode runs effects twice) makes a fresh one.
 */
function useObjectUrlOn<T extends HTMLImageElement | HTMLIFrameElement>(blob: Blob) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const url = URL.createObjectURL(blob);
    element.src = url;
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return ref;
}

/** An image from a file the API made (a PNG or an SVG, shown as an image: an SVG's scripts never run). */
export function BlobImage({ blob, alt, maxWidth }: { blob: Blob; alt: string; maxWidth: number }) {
  const ref = useObjectUrlOn<HTMLImageElement>(blob);
  const style: CSSProperties = { display: 'block', width: '100%', maxWidth, height: 'auto', margin: '0 auto', imageRendering: 'pixelated' };
  return <img ref={ref} alt={alt} style={style} />;
}

/** A PDF the API made, in the browser's own viewer. */
export function BlobPdf({ blob, title }: { blob: Blob; title: string }) {
  const ref = useObjectUrlOn<HTMLIFrameElement>(blob);
  return (
    <Box style={{ aspectRatio: '8.5 / 11', maxHeight: 480, width: '100%' }}>
      <iframe ref={ref} title={title} style={{ border: 0, width: '100%', height: '100%' }} />
    </Box>
  );
}
