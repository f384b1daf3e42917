import type { EventOf } from '../events';
import type { Draft } from './draft';
import type { SkillOfferRow, StandingRow } from './rows';

type OfferEvent = EventOf<'standing.requested' | 'skill.offered' | 'skill.saved' | 'skill.offer_dismissed'>;

/** What the assistant hands on or offers: a standing request for the host, a repeated request to save as a skill. */
export function foldOffer(d: Draft, event: OfferEvent): void {
  switch (event.type) {
    case 'standing.requested': {
      const row: StandingRow = { kind: 'standing', id: event.request_id, text: event.text };
      if (event.cadence !== undefined) row.cadence = event.cadence;
      if (d.find(event.request_id, 'standing') === -1) d.add(row);
      return;
    }
    case 'skill.offered': {
      const i = d.find(event.offer_id, 'skill_offer');
      const prior = d.row(i, 'skill_offer');
      const row: SkillOfferRow = {
        kind: 'skill_offer',
        id: event.offer_id,
        sequence: event.sequence,
        titles: event.titles,
        // Once saved, the row keeps the name the user chose.
        name: prior?.status === 'saved' ? prior.name : event.name,
        description: event.description,
        status: prior?.status ?? 'pending',
      };
      if (event.instructions !== undefined) row.instructions = event.instructions;
      if (prior?.path !== undefined) row.path = prior.path;
      if (event.turn_id) row.turn_id = event.turn_id;
      return d.put(i, row);
    }
    case 'skill.saved': {
      // A skill saved directly (not from an offer) has no row of its own.
      if (event.offer_id === undefined) return;
      const i = d.find(event.offer_id, 'skill_offer');
      const prior = d.row(i, 'skill_offer');
      const saved = { status: 'saved' as const, path: event.path, name: event.name.replace(/^\//, '') };
      return d.put(i, prior ? { ...prior, ...saved } : { kind: 'skill_offer', id: event.offer_id, sequence: [], titles: [], description: '', ...saved });
    }
    case 'skill.offer_dismissed': {
      const i = d.find(event.offer_id, 'skill_offer');
      const prior = d.row(i, 'skill_offer');
      // A saved skill stays saved: a late dismissal cannot unsave it.
      if (prior?.status === 'saved') return;
      return d.put(i, prior ? { ...prior, status: 'dismissed' } : { kind: 'skill_offer', id: event.offer_id, sequence: [], titles: [], name: '', description: '', status: 'dismissed' });
    }
    default:
      return event satisfies never;
  }
}
