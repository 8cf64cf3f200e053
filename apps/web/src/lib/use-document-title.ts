import { useEffect } from 'react';

/** Sets the browser tab title to "<title> · Tay". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Tay`;
  }, [title]);
}
