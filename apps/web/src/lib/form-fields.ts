import type { ChangeEvent } from 'react';

type TextKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V];

/**
 * Binds a form's text inputs to its values: `{...field('dueDate')}` gives an input its value,
 * its change (through the form's own `set`, which clears the field's error) and its error.
 */
export function textFieldsOf<V, E extends object>(values: V, errors: E, set: (key: TextKeys<V>, value: string) => void) {
  return (key: TextKeys<V> & string) => ({
    value: values[key] as string,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => set(key, e.currentTarget.value),
    error: (errors as Record<string, string | undefined>)[key],
  });
}
