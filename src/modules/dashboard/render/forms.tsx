import type { ComponentChildren } from 'preact';

export type Errors = Record<string, string>;

/** GOV.UK's error summary: every problem listed at the top, each linking to its field. */
export function ErrorSummary(props: { errors: Errors; labels: Record<string, string> }) {
  const entries = Object.entries(props.errors);
  if (entries.length === 0) return null;
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex={-1}>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {entries.map(([field, message]) => (
          <li key={field}>{props.labels[field] ? <a href={`#field-${field}`}>{message}</a> : message}</li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled input with its hint and error next to it (aria-describedby names both). */
export function Field(props: {
  name: string;
  label: string;
  errors?: Errors | undefined;
  value?: string | undefined;
  type?: 'text' | 'email' | 'password' | 'number' | 'url';
  hint?: string;
  autoComplete?: string;
  required?: boolean;
  maxLength?: number;
  inputMode?: 'numeric' | 'decimal';
  /** When several forms of a page share field names: the control's own id and its error, instead of `field-<name>` and `errors[name]`. */
  id?: string;
  error?: string | undefined;
}) {
  const id = props.id ?? `field-${props.name}`;
  const error = props.id ? props.error : props.errors?.[props.name];
  return (
    <Labelled id={id} label={props.label} hint={props.hint} error={error}>
      {(a11y) => (
        <input
          id={id}
          name={props.name}
          type={(props.type ?? 'text') as 'text'}
          value={props.type === 'password' ? undefined : props.value}
          autocomplete={props.autoComplete}
          required={props.required}
          maxLength={props.maxLength}
          inputMode={props.inputMode}
          {...a11y}
        />
      )}
    </Labelled>
  );
}

/** What a control needs to name its hint and its error (`aria-describedby`) and to say it is invalid. */
export interface ControlA11y {
  'aria-describedby': string | undefined;
  'aria-invalid': 'true' | undefined;
}

/**
 * A field's frame: its label, hint and error (GOV.UK's order: label, hint, error, control) around the
 * control `children` renders with the ids to reference. Inputs (Field) and text areas share it.
 */
export function Labelled(props: {
  id: string;
  label: string;
  hint?: string | undefined;
  error: string | undefined;
  children: (a11y: ControlA11y) => ComponentChildren;
}) {
  const { id, error } = props;
  const described = [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={error ? 'field field-error' : 'field'}>
      <label for={id}>{props.label}</label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
      {props.children({ 'aria-describedby': described || undefined, 'aria-invalid': error ? 'true' : undefined })}
    </div>
  );
}

/** A field's error message, referenced by its control's aria-describedby (`{id}-error`). */
export function FieldError(props: { id: string; error: string | undefined }) {
  if (!props.error) return null;
  return (
    <p class="error-message" id={`${props.id}-error`}>
      <span class="visually-hidden">Error: </span>
      {props.error}
    </p>
  );
}

/** A labelled select with its error next to it. */
export function Select(props: { name: string; label: string; options: Array<[string, string]>; value?: string | undefined; errors?: Errors | undefined }) {
  const id = `field-${props.name}`;
  const error = props.errors?.[props.name];
  return (
    <div class={error ? 'field field-error' : 'field'}>
      <label for={id}>{props.label}</label>
      <FieldError id={id} error={error} />
      <select id={id} name={props.name} aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? 'true' : undefined}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value} selected={value === props.value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A form that changes something: POST with the session's CSRF token. */
export function PostForm(props: { action: string; csrf: string; class?: string; children: ComponentChildren; id?: string; label?: string }) {
  return (
    <form method="post" action={props.action} class={props.class} id={props.id} aria-label={props.label} novalidate>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {props.children}
    </form>
  );
}

/** The confirmation after a change (the `done` code of the redirect, from a fixed table: no text from the URL). */
/** A problem with the whole form (not one field): the error summary with one sentence, or nothing. */
export function Problem(props: { text: string | undefined }) {
  if (!props.text) return null;
  return (
    <div class="error-summary" role="alert">
      <h2>There is a problem</h2>
      <p>{props.text}</p>
    </div>
  );
}

export function Notice(props: { text: string | undefined }) {
  if (!props.text) return null;
  return <div class="notice">{props.text}</div>;
}
