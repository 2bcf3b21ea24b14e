/**
 * Formatting one message (plain code, no catalogue: the browser bundle imports this and gets its few
 * words from the page). Plurals by Intl.PluralRules, `{name}` placeholders, numbers in the locale's digits.
 */
export type Message = string | Partial<Record<Intl.LDMLPluralRule, string>>;
export type Values = Record<string, string | number>;

function fill(text: string, values: Values | undefined, locale: string): string {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? new Intl.NumberFormat(locale).format(value) : value;
  });
}

/** `message` (or `fallback`, English, when the language lacks it) with `values`, in `locale`. */
export function formatMessage(locale: string, message: Message | undefined, fallback: Message | undefined, values?: Values): string {
  const chosen = message ?? fallback ?? '';
  if (typeof chosen === 'string') return fill(chosen, values, locale);
  const rule = new Intl.PluralRules(locale).select(Number(values?.count ?? 0));
  const english = typeof fallback === 'object' ? fallback : {};
  return fill(chosen[rule] ?? chosen.other ?? english.other ?? '', values, locale);
}
