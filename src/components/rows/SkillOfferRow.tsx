import { useId, useState, type ComponentPropsWithRef } from 'react';
import type { SkillOfferRow as SkillOfferRowData } from '../../runtime/fold';
import { useRowDecision } from './useRowDecision';
import { RowFrame } from './RowFrame';
import { useMessages } from '../messages/context';

export interface SkillOfferRowProps extends ComponentPropsWithRef<'article'> {
  /** The offer to show. */
  row: SkillOfferRowData;
}

/**
 * The assistant's offer to save a repeated multi-step request as a slash
 * skill: "Save this as /name?", the steps, an optional new name, Save and
 * Dismiss. A saved skill is in the slash list at once. `data-state` is
 * pending|saved|dismissed.
 * @example
 * <SkillOfferRow row={{ kind: 'skill_offer', id: 'o1', sequence: ['records.import_csv', 'enrich.batch'], titles: ['Import CSV', 'Enrich records'], name: 'import-then-enrich', description: 'Runs Import CSV, then Enrich records.', status: 'pending' }} />
 */
export function SkillOfferRow({ row, ...props }: SkillOfferRowProps) {
  const pending = row.status === 'pending';
  const decision = useRowDecision<HTMLElement>(row.id, pending);
  const [name, setName] = useState(row.name);
  const nameId = useId();
  const m = useMessages().skillOffer;
  const save = () => {
    const chosen = name.trim();
    decision.decide('accept', chosen && chosen !== row.name ? chosen : undefined);
  };
  return (
    <RowFrame
      {...props}
      part="skill-offer"
      state={row.status}
      label={m.label}
      heading={row.status === 'saved' ? m.saved(row.name) : m.ask(row.name)}
      outcome={row.status === 'saved' ? m.runAgain(row.name) : row.status === 'dismissed' ? m.dismissed : null}
      decision={decision}
    >
      <p data-part="row-reason">{row.description || m.ranTwice(row.titles)}</p>
      {row.titles.length ? (
        <ol data-part="skill-offer-steps" aria-label={m.steps}>
          {row.titles.map((title, index) => (
            <li key={`${index}-${title}`}>{title}</li>
          ))}
        </ol>
      ) : null}
      {pending && decision.canDecide ? (
        <form
          data-part="row-actions"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <label htmlFor={nameId}>{m.name}</label>{' '}
          <input id={nameId} data-part="skill-offer-name" value={name} onChange={(event) => setName(event.target.value)} disabled={decision.busy} autoComplete="off" spellCheck={false} />
          <button type="submit" data-part="skill-offer-save" data-variant="primary" aria-label={m.saveAs(name.trim() || row.name)} disabled={decision.busy}>
            {m.save}
          </button>
          <button type="button" data-part="skill-offer-dismiss" aria-label={m.dismissLabel} disabled={decision.busy} onClick={() => decision.decide('dismiss')}>
            {m.dismiss}
          </button>
        </form>
      ) : null}
    </RowFrame>
  );
}
SkillOfferRow.displayName = 'ChatSurface.SkillOfferRow';
