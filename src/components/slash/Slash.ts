import { SkillMessage } from './SkillMessage';
import { SlashCombobox } from './SlashCombobox';
import { SlashNotice } from './SlashNotice';
import { SlashPanels } from './SlashPanels';
import { SlashRoot } from './SlashRoot';
import { StatusRow } from './StatusRow';
import { ThreadSwitcher } from './ThreadSwitcher';
import { contentPanel, nodePicker } from './deferredViews';

/**
 * The slash-skill parts: discovery and dispatch (`Root`), the combobox, the
 * picker, the content panel, notices, the status row. The combobox's popup,
 * the picker and the panel load their code (cmdk, radix) apart from the
 * page's first script.
 */
export const Slash = {
  Root: SlashRoot,
  Combobox: SlashCombobox,
  Panels: SlashPanels,
  NodePicker: nodePicker.Part,
  ContentPanel: contentPanel.Part,
  Notice: SlashNotice,
  StatusRow,
  SkillMessage,
  ThreadSwitcher,
};
