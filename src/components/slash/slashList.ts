// The slash UI's chunk, fetched once the user steps into the message box (see ./deferredParts):
// the combobox's popup and the parts that run node queries (React Query's observer and hooks).
export { SlashPopup } from './SlashPopup';
export { SkillDiscovery, StatusName } from './slashQueries';
