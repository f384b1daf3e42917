import { ContentPanel } from './ContentPanel';
import { NodePicker } from './NodePicker';
import { SkillMessage } from './SkillMessage';
import { SlashCombobox } from './SlashCombobox';
import { SlashNotice } from './SlashNotice';
import { SlashOption } from './SlashOption';
import { SlashPanels } from './SlashPanels';
import { SlashRoot } from './SlashRoot';
import { StatusRow } from './StatusRow';
import { ThreadSwitcher } from './ThreadSwitcher';

/** The slash-skill parts: discovery and dispatch (`Root`), the combobox, the picker, the content panel, notices, the status row. */
export const Slash = {
  Root: SlashRoot,
  Combobox: SlashCombobox,
  Option: SlashOption,
  Panels: SlashPanels,
  NodePicker,
  ContentPanel,
  Notice: SlashNotice,
  StatusRow,
  SkillMessage,
  ThreadSwitcher,
};
