import { ComposerAttach } from './ComposerAttach';
import { ComposerDictate } from './ComposerDictate';
import { ComposerInput } from './ComposerInput';
import { ComposerRoot } from './ComposerRoot';
import { ComposerSend } from './ComposerSend';
import { ComposerStop } from './ComposerStop';

/** The message composer's parts. */
export const Composer = { Root: ComposerRoot, Input: ComposerInput, Send: ComposerSend, Stop: ComposerStop, Dictate: ComposerDictate, Attach: ComposerAttach };
