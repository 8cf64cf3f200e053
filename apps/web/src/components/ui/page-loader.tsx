import { Center, Loader } from '@mantine/core';

/** The spinner shown while the session and the user load (docs/product.md §2). */
export function PageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader role="status" aria-label={label} />
    </Center>
  );
}
