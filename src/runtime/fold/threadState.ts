import type { Composer, EventOf } from '../events';
import type { Draft, Writable } from './draft';

/** The thread's own state, no rows: what the user looks at, the selections, the skills loaded. Per field, the highest seq wins. */
export function foldThreadState(d: Draft, event: EventOf<'view.changed' | 'composer.changed' | 'skill.activated'>): void {
  switch (event.type) {
    case 'view.changed':
      if (event.seq <= d.next.seqs.view) return; // a later view arrived first
      d.next.activeView = event.view;
      d.seqs().view = event.seq;
      return;
    case 'composer.changed': {
      let composer: Writable<Composer> | null = null;
      let seqs: Partial<Record<keyof Composer, number>> | null = null;
      for (const key of Object.keys(event.composer) as (keyof Composer)[]) {
        const value = event.composer[key];
        if (value === undefined || (d.next.seqs.composer[key] ?? 0) >= event.seq) continue;
        composer ??= { ...d.next.composer };
        seqs ??= { ...d.next.seqs.composer };
        composer[key] = value;
        seqs[key] = event.seq;
      }
      if (composer && seqs) {
        d.next.composer = composer;
        d.seqs().composer = seqs;
      }
      return;
    }
    case 'skill.activated':
      return activateSkill(d, event.skill, event.seq);
    default:
      return event satisfies never;
  }
}

/** Lists a skill once, at the position of its first activation by seq. */
function activateSkill(d: Draft, skill: string, seq: number): void {
  let skills = d.next.activeSkills;
  let order = d.next.seqs.skills;
  const at = skills.indexOf(skill);
  if (at !== -1) {
    if ((order[at] ?? 0) <= seq) return;
    skills = [...skills.slice(0, at), ...skills.slice(at + 1)];
    order = [...order.slice(0, at), ...order.slice(at + 1)];
  }
  // Seqs of skills listed before this bookkeeping existed count as 0.
  const seqOf = (k: number) => order[k] ?? 0;
  let i = skills.length;
  while (i > 0 && seqOf(i - 1) > seq) i--;
  const nextOrder: number[] = skills.map((_, k) => seqOf(k));
  nextOrder.splice(i, 0, seq);
  d.next.activeSkills = [...skills.slice(0, i), skill, ...skills.slice(i)];
  d.seqs().skills = nextOrder;
}
