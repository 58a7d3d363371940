import { fieldSentence } from './problem-text';

/** What a form needs of one field's schema in `@tv-shop/contracts` (a zod type). */
interface FieldSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}

/**
 * The fields of one of the server's own schemas, so a form refuses exactly what the server
 * would. `load` imports the schema's module: it, and zod with it, is fetched with the first
 * check, not with the page (ADR 0043). `rule(name)` is an antd rule that runs the server's check
 * of that field and says its complaint as a sentence; an empty field is the `required` rule's.
 */
export function serverFields<S extends Record<string, FieldSchema>>(load: () => Promise<S>) {
  let shape: Promise<S> | null = null;
  const fields = () => (shape ??= load());
  return {
    fields,
    rule: (name: keyof S & string) => ({
      validator: async (_: unknown, value: unknown) => {
        if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) return;
        const result = (await fields())[name]!.safeParse(value);
        if (!result.success) throw new Error(fieldSentence(name, result.error?.issues[0]?.message ?? 'is not valid'));
      },
    }),
  };
}
