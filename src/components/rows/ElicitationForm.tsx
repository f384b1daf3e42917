import { useId, useMemo, useRef, useState } from 'react';
import { fieldsOf, initialValues, readForm, type ElicitationField, type FieldIssue, type RawValue } from '../../runtime/elicitationFields';
import type { ElicitationRow } from '../../runtime/fold';
import { useMessages } from '../messages/context';
import type { RowDecision } from './useRowDecision';

export interface ElicitationFormProps {
  /** The pending form question. */
  row: ElicitationRow;
  decision: RowDecision<HTMLElement>;
}

/**
 * The fields a server asked for, as a real form: text (email, web address and date boxes for
 * those formats), numbers, yes/no boxes, a select for a single choice and boxes for several;
 * required ones say so. Submit checks every field first and says what to change, in words, by
 * each field (the first one that needs a change takes focus); nothing typed is lost. Decline
 * and Cancel send no values.
 */
export function ElicitationForm({ row, decision }: ElicitationFormProps) {
  const m = useMessages().elicitation;
  const { fields, unsupported } = useMemo(() => fieldsOf(row.requested_schema), [row.requested_schema]);
  const [values, setValues] = useState<Record<string, RawValue>>(() => initialValues(fields));
  const [issues, setIssues] = useState<FieldIssue[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const base = useId();
  const idOf = (key: string) => `${base}-${key}`;
  const set = (key: string, value: RawValue) => setValues((prior) => ({ ...prior, [key]: value }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const read = readForm(fields, values);
    setIssues(read.issues);
    if (read.issues.length) {
      const first = formRef.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(read.issues[0]!.key)}"] :is(input, select)`);
      first?.focus();
      return;
    }
    decision.decide('answer', JSON.stringify(read.content));
  };

  return (
    <form ref={formRef} data-part="elicitation-form" aria-label={m.formLabel(row.server)} noValidate onSubmit={submit}>
      {issues.length ? (
        <div data-part="elicitation-issues" role="alert">
          <p>{m.fix(issues.length)}</p>
          <ul>
            {issues.map((issue) => (
              <li key={issue.key}>{issue.message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {fields.map((field) => (
        <Field key={field.key} field={field} id={idOf(field.key)} value={values[field.key]} issue={issues.find((i) => i.key === field.key)} disabled={decision.busy} onChange={(v) => set(field.key, v)} />
      ))}
      {unsupported.length ? <p data-part="row-warning">{m.unsupported(unsupported.join(', '))}</p> : null}
      <div data-part="row-actions">
        <button type="submit" data-part="elicitation-submit" data-variant="primary" disabled={decision.busy}>
          {m.submit}
        </button>
        <button type="button" data-part="elicitation-decline" disabled={decision.busy} onClick={() => decision.decide('deny')}>
          {m.decline}
        </button>
        <button type="button" data-part="elicitation-cancel" disabled={decision.busy} onClick={() => decision.decide('dismiss')}>
          {m.cancel}
        </button>
      </div>
    </form>
  );
}
ElicitationForm.displayName = 'ChatSurface.ElicitationForm';

interface FieldProps {
  field: ElicitationField;
  id: string;
  value: RawValue | undefined;
  issue: FieldIssue | undefined;
  disabled: boolean;
  onChange(value: RawValue): void;
}

const INPUT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'text' } as const;

/** One field: its label (with "(required)"), its control, its description and what to change. */
function Field({ field, id, value, issue, disabled, onChange }: FieldProps) {
  const m = useMessages().elicitation;
  const hintId = `${id}-hint`;
  const issueId = `${id}-issue`;
  const described = [field.description ? hintId : '', issue ? issueId : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, disabled, 'aria-invalid': issue ? true : undefined, 'aria-describedby': described, 'aria-required': field.required || undefined } as const;
  const label = (
    <>
      {field.label}
      {field.required ? (
        <>
          {' '}
          <span data-part="elicitation-required">{m.required}</span>
        </>
      ) : null}
    </>
  );
  const text = typeof value === 'string' ? value : '';
  let control: React.ReactNode;
  switch (field.type) {
    case 'boolean':
      control = (
        <label data-part="elicitation-check">
          <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}
        </label>
      );
      break;
    case 'multi': {
      const chosen = Array.isArray(value) ? (value as readonly string[]) : [];
      control = (
        <fieldset data-part="elicitation-choices" aria-describedby={described} aria-invalid={issue ? true : undefined} aria-required={field.required || undefined}>
          <legend>{label}</legend>
          {field.options.map((option) => (
            <label key={option.value} data-part="elicitation-check">
              <input
                type="checkbox"
                disabled={disabled}
                checked={chosen.includes(option.value)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value))}
              />{' '}
              {option.label}
            </label>
          ))}
        </fieldset>
      );
      break;
    }
    case 'choice':
      control = (
        <>
          <label htmlFor={id}>{label}</label>
          <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
            <option value="">{m.choose}</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </>
      );
      break;
    case 'number':
      control = (
        <>
          <label htmlFor={id}>{label}</label>
          <input {...common} type="text" inputMode={field.integer ? 'numeric' : 'decimal'} autoComplete="off" value={text} onChange={(e) => onChange(e.target.value)} />
        </>
      );
      break;
    case 'text':
      control = (
        <>
          <label htmlFor={id}>{label}</label>
          <input {...common} type={field.format ? INPUT_TYPES[field.format] : 'text'} autoComplete="off" value={text} onChange={(e) => onChange(e.target.value)} />
        </>
      );
      break;
    default:
      return field satisfies never;
  }
  return (
    <div data-part="elicitation-field" data-field={field.key} data-type={field.type} data-invalid={issue ? true : undefined}>
      {control}
      {field.description ? (
        <p id={hintId} data-part="elicitation-hint">
          {field.description}
        </p>
      ) : null}
      {issue ? (
        <p id={issueId} data-part="elicitation-issue">
          {issue.message}
        </p>
      ) : null}
    </div>
  );
}
