import type { ComponentType } from 'react';

/**
 * A page loaded on first visit, in its own bundle: a payer opening a payment link does not
 * download the portal, and the sign-in page downloads none of the pages behind it (ADR 028).
 * `props` are given to the page (one page module serving two routes).
 */
export function page<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string, props?: Record<string, unknown>) {
  return {
    lazy: async () => {
      const Page = (await load())[name] as ComponentType<Record<string, unknown>>;
      return { Component: props ? () => <Page {...props} /> : Page };
    },
  };
}
