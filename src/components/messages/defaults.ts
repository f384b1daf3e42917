import { INTERRUPTED } from '../../runtime/interrupted';
import { formatDuration } from '../../hooks/useElapsed';
import { remoteWords } from '../../workspace/remoteWords';
import { editWords, versionWords } from './versionWords';
import { connectorWords } from './connectorWords';
import { replyWords } from './replyWords';
import { elicitationWords } from './elicitationWords';
import { dictateWords } from '../composer/dictateWords';
import { formatCount, plural } from './plural';

/** A message from a thrown reason: the Error's message, else the value as text. */
type Reason = string;

/**
 * Every word the kit shows (visible text, accessible names, titles, placeholders, live-region
 * announcements, status words), in English, grouped by the part that shows it. A host passes
 * its own words for some or all of them through `<ChatSurface messages={…}>` (see
 * `MessagesOverride`); a countable message is a function of its count (see `plural`). Words
 * that come from the workspace (capability titles, the server's error messages, skill names)
 * are data and pass through as they are.
 */
export const defaultMessages = {
  surface: {
    /** The landmark's name when the host gives no `label`. */
    label: 'Chat',
    /** The header's badge: which model answers (its label follows in bold). */
    answering: 'Answering:',
  },
  transcript: {
    /** The log's accessible name. */
    label: 'Conversation',
    loading: 'Loading the conversation…',
    jumpToLatest: 'Jump to latest',
    /** After "Jump to latest" while the reader is scrolled up: rows that arrived meanwhile. */
    jumpNewCount: plural('en', { other: ' (# new)' }),
    jumpToDecision: 'Jump to the decision waiting for you',
    /** Announced when a row comes to wait for the user's decision. */
    waitingApproval: 'An approval is waiting for you',
    waitingProposal: 'A proposal is waiting for you',
    waitingQuestion: 'A question is waiting for your answer',
    waitingSkillOffer: 'An offer to save a skill is waiting for you',
    waitingDecision: 'A decision is waiting for you',
  },
  welcome: {
    title: 'What can I help with?',
    text: 'Ask in your own words, or type / for skills.',
    startersLabel: 'Starter suggestions',
    notSent: (reason: Reason) => `Not sent: ${reason}`,
  },
  message: {
    you: 'You',
    assistant: 'Assistant',
    showLess: 'Show less',
    /** The button that expands a long message of the user's, with its length. */
    showAll: plural('en', { one: 'Show all (# character)', other: 'Show all (# characters)' }),
    cutShort: 'This reply was cut short.',
    interrupted: INTERRUPTED.reply as string,
    /** The accessible name of a skill's chip in the user's message. */
    skillChip: (skill: string) => `Skill ${skill}`,
  },
  ...replyWords, // reasoning (above a reply) and citations (its sources), in replyWords.ts
  /** The actions under a reply: copy it, rate it (with an optional comment). */
  messageActions: {
    /** The group's accessible name. */
    label: 'Message actions',
    copy: 'Copy',
    /** Announced, and shown on the button for a moment, once the reply is on the clipboard. */
    copied: 'Copied',
    copyFailed: 'Copy failed',
    good: 'Good response',
    bad: 'Bad response',
    /** The comment box that opens after a rating. */
    commentLabel: 'Tell us more (optional)',
    commentSend: 'Send feedback',
    commentSkip: 'Skip',
    /** Announced once a rating (or its comment) is saved. */
    thanks: 'Thanks for your feedback',
    /** Announced once a rating is withdrawn. */
    withdrawn: 'Feedback removed',
    notSaved: (reason: Reason) => `Feedback not saved: ${reason}`,
    /** Asks for a new reply to the same message (the one shown stays, one switch away). */
    regenerate: 'Regenerate',
    notRegenerated: (reason: Reason) => `Not regenerated: ${reason}`,
  },
  /** A message of the user's edited in place: sending it makes a new version of it, with a new reply. */
  messageEdit: editWords,
  /** The versions of a message (its edits) or of a reply (its regenerations): the picker on it. */
  versions: versionWords,
  /** What a remote workspace says about a failed request (the composer's "Not sent: …", a chip's, a retry's). */
  remote: remoteWords,
  error: {
    stopped: 'Stopped',
    problem: 'Problem',
    retry: 'Retry',
    retryFailed: (reason: Reason) => `Retry failed: ${reason}`,
  },
  composer: {
    /** The form's accessible name; with the surface's landmark name when the page has several. */
    label: 'Message composer',
    labelOf: (surface: string) => `Message composer (${surface})`,
    /** The message box's accessible name. */
    input: 'Message',
    placeholder: 'Ask anything…',
    send: 'Send',
    stop: 'Stop',
    stopLabel: 'Stop the reply',
    notSent: (reason: Reason) => `Not sent: ${reason}. Your message is back in the box.`,
  },
  /** Voice input (`Composer.Dictate`): its button, announcements and errors. */
  dictate: dictateWords,
  /** Messages sent while a reply runs: they wait under the transcript and are sent when it ends. */
  queue: {
    label: 'Queued messages',
    waiting: plural('en', { one: '# message will be sent when the reply ends.', other: '# messages will be sent, in order, when the reply ends.' }),
    paused: plural('en', { one: 'Stopped: # message waits until you send it.', other: 'Stopped: # messages wait until you send them.' }),
    resume: 'Send queued messages',
    sendNow: 'Send now',
    sendNowLabel: (text: string) => `Send now: ${text}`,
    edit: 'Edit',
    editNamed: (text: string) => `Edit: ${text}`,
    editLabel: 'Edit the queued message',
    save: 'Save',
    cancel: 'Cancel',
    remove: 'Remove',
    removeNamed: (text: string) => `Remove: ${text}`,
    notSent: (reason: Reason) => `Not sent: ${reason}. It is first in the queue again.`,
    full: (limit: number) => `At most ${formatCount('en', limit)} messages can wait; send or remove one first.`,
  },
  cast: {
    label: 'Working now',
    writing: 'Writing a reply',
    thinking: 'Thinking',
    /** An invocation's actor when it names none. */
    assistant: 'Assistant',
    /** The hidden words after "+N": the figures past the row's room. */
    more: (count: number, names: readonly string[]) => `and ${formatCount('en', count)} more: ${names.join(', ')}`,
    started: (who: string | undefined, title: string) => `${who ?? 'The assistant'} started ${title}.`,
    finished: (who: string | undefined, title: string) => `${who ?? 'The assistant'} finished ${title}.`,
  },
  suggestions: {
    label: 'Suggested next steps',
    notStarted: (hint: string, reason: Reason) => `Could not start “${hint}”: ${reason}`,
    running: (title: string) => `${title} is running`,
    runs: (title: string) => `Runs ${title}`,
  },
  row: {
    /** A decision button's accessible name: its word and the row's title. */
    choice: (choice: string, title: string) => `${choice} ${title}`,
    notDecided: (reason: Reason) => `That did not go through: ${reason}. Try again.`,
  },
  load: {
    /** What a part is called while its code loads, or when it could not be loaded. */
    parts: {
      toolCall: 'the tool call',
      approval: 'the approval',
      proposal: 'the suggested action',
      args: 'the arguments',
      question: 'the question',
      skillOffer: 'the skill offer',
      standing: 'the standing request',
      subThreadOrigin: 'the parent thread link',
      subThread: 'the sub-thread',
      subThreadSummary: 'the sub-thread summary',
      violation: 'the quality check',
      skillList: 'the skill list',
      picker: 'the picker',
      panel: 'the panel',
      connectors: 'the MCP servers form',
      media: "the result's media",
      appView: 'the app view',
      part: 'this part',
    },
    /** A row's line while its code loads ("the approval"). */
    loading: (what: string) => `Loading ${what}…`,
    /** A slash view's line while its code loads. */
    opening: 'Opening…',
    failed: (what: string, reason: Reason) => `${what.charAt(0).toUpperCase()}${what.slice(1)} could not be loaded (${reason}). Reload the page to try again; your draft is kept.`,
  },
  approval: {
    waiting: 'Waiting for your approval',
    label: 'Approval',
    approve: 'Approve',
    deny: 'Deny',
    approvedRunning: 'Approved: it is running.',
    /** Once the run it led to ended: finished, failed or stopped. */
    approvedDone: 'Approved: it finished.',
    approvedFailed: 'Approved, but it failed.',
    approvedStopped: 'Approved, then stopped before it finished.',
    denied: 'Denied: it was not run.',
    approvedForApp: 'Approved for this app until it is closed: its calls run inside its card.',
    destructive: 'This changes or removes data and may not be undoable.',
  },
  proposal: {
    label: 'Suggested action',
    accept: 'Accept',
    dismiss: 'Dismiss',
    accepted: 'Accepted: running it now.',
    acceptedDone: 'Accepted: it finished.',
    acceptedFailed: 'Accepted, but it failed.',
    acceptedStopped: 'Accepted, then stopped before it finished.',
    dismissed: 'Dismissed: nothing was run.',
  },
  elicitation: elicitationWords,
  question: {
    label: 'Question',
    fallback: 'The assistant asked a question.',
    answered: (answer: string) => `You answered: ${answer}`,
    quickAnswers: 'Quick answers',
    ownWords: 'Or answer in your own words',
    yourAnswer: 'Your answer',
    answer: 'Answer',
  },
  violation: {
    label: 'Check failed',
    details: 'Details',
    expected: 'Expected',
    found: 'Found',
    /** Postcondition kinds in words; an unknown kind shows its name with spaces. */
    checks: {
      row_count_change: 'Row count',
      file_created: 'Files created',
      exit_code: 'Exit code',
      stdout_matches: 'Output',
      duration: 'Duration',
    } as Record<string, string>,
  },
  standing: {
    label: 'Standing request',
    tracking: 'The app keeps track of this and will let you know.',
  },
  skillOffer: {
    label: 'Save as a skill',
    ask: (name: string) => `Save this as /${name}?`,
    saved: (name: string) => `Saved as /${name}`,
    runAgain: (name: string) => `Type /${name} to run it again.`,
    dismissed: 'Dismissed: nothing was saved.',
    ranTwice: (titles: readonly string[]) => `You ran ${titles.join(', then ')} twice.`,
    steps: 'Steps',
    name: 'Name',
    save: 'Save',
    saveAs: (name: string) => `Save as /${name}`,
    dismiss: 'Dismiss',
    dismissLabel: 'Dismiss the skill offer',
  },
  subThread: {
    label: 'Sub-thread',
    opened: (title: string) => `Opened a sub-thread: ${title}`,
    running: 'Working in the sub-thread…',
    done: 'Finished.',
    failed: 'Failed.',
    cancelled: 'Stopped.',
    interrupted: 'Interrupted by a restart.',
    stop: 'Stop',
    stopLabel: (title: string) => `Stop the ${title} sub-thread`,
    summaryLabel: 'Sub-thread summary',
    summary: (title: string, outcome: 'done' | 'failed' | 'cancelled' | 'interrupted') =>
      `The ${title} sub-thread ${{ done: 'finished', failed: 'failed', cancelled: 'was stopped', interrupted: 'was interrupted' }[outcome]}`,
    show: 'Show the sub-thread',
    showLabel: (title: string) => `Show the ${title} sub-thread`,
    origin: (parent: string, title: string) => `Sub-thread of “${parent}”: ${title}`,
    back: 'Back to the parent thread',
    backLabel: (parent: string) => `Back to “${parent}”`,
  },
  card: {
    queued: 'Queued',
    running: 'Running',
    done: 'Done',
    failed: 'Failed',
    cancelled: 'Cancelled',
    notRun: 'Not run',
    cancel: 'Cancel',
    cancelLabel: (title: string) => `Cancel ${title}`,
    retry: 'Retry',
    retryLabel: (title: string) => `Retry ${title}`,
    retryFailed: (reason: Reason) => `Retry failed: ${reason}`,
    /** Above a card's usual body when the host's own component for its result threw. */
    rendererFailed: 'This result could not be shown in its own view, so it is shown the usual way.',
    waitingToStart: 'Waiting to start',
    trackedAsJob: ' (tracked as a job)',
    progressLabel: (title: string) => `${title} progress`,
    working: 'Working',
    outputLabel: (title: string) => `${title} output`,
    earlierDropped: '… earlier output dropped …',
    earlierLines: plural('en', { one: '… # earlier line …', other: '… # earlier lines …' }),
    showLessOutput: 'Show less output',
    showAllOutput: plural('en', { one: 'Show all output (# line)', other: 'Show all output (# lines)' }),
    /** The checks that failed, by name (each one's row says what went wrong). */
    checksFailed: (names: readonly string[]) => `${plural('en', { one: 'A check did not hold: ', other: '# checks did not hold: ' })(names.length)}${names.join(', ')}.`,
    /** A run the user stopped part way: what it had done (the handler's words, or `partWayCount`). */
    stoppedPartWay: (done: string) => `Stopped part way: ${done}.`,
    partWayCount: (progress: number, total?: number) => (total !== undefined ? `${progress} of ${total} done` : `${progress} done`),
    checksPassed: (checks: readonly string[]) => `✓ checked: ${checks.join('; ')}`,
    argumentProblems: 'Problems with the arguments',
    slow: (actual: string, expected: string) => `Slower than expected: ${actual} (expected under ${expected}).`,
    details: 'Details',
    failedCheck: (postcondition: string, expected: string, actual: string) => `${postcondition}: expected ${expected}, got ${actual}`,
    errorCode: (code: string) => `Error code: ${code}`,
    rawResult: (title: string) => `${title} raw result`,
    resultTable: (title: string) => `${title} result table`,
    moreRows: plural('en', { one: 'and # more row', other: 'and # more rows' }),
    moreItems: plural('en', { one: 'and # more item', other: 'and # more items' }),
  },
  markdown: {
    copy: 'Copy',
    copied: 'Copied',
    copyFailed: 'Copy failed',
    /** The copy button's accessible name: its word and the code's language (empty when unnamed). */
    copyLabel: (word: string, language: string) => `${word} ${language} code`.replace(/\s+/g, ' '),
    code: 'code',
    image: (alt: string) => (alt ? `Image: ${alt}` : 'Image'),
    done: 'Done',
    notDone: 'Not done',
    table: 'Table',
    linkRemoved: 'Link removed: its address is not allowed here',
    /** A block formula's name (it scrolls sideways when wide). */
    formula: 'Formula',
    /** The title of a formula that could not be shown: its source shows instead. */
    formulaError: 'This formula could not be shown, so it is written out as typed',
  },
  app: {
    /** An MCP App view's frame (its title), from the tool's title. */
    name: (title: string) => `${title} app`,
    loading: 'Loading the app view…',
    notLoaded: (reason: Reason) => `The app view could not be loaded: ${reason}`,
    fromApp: 'Called from inside an app view above; its result went back to the app.',
    off: 'This tool has an interactive view; it is not shown here, so the result is plain text.',
    closed: 'The app view is closed.',
    open: (name: string) => `Open ${name} again`,
    close: (name: string) => `Close ${name}`,
    notStarted: (problem: string) => `The app could not start: ${problem}`,
  },
  media: {
    /** Why an image or audio block of a result is not shown. */
    wrongType: (kind: 'image' | 'audio', type: string, allowed: readonly string[]) =>
      `An ${kind === 'image' ? 'image' : 'audio clip'} of type ${type} is not shown (only ${allowed.join(', ')}).`,
    tooLarge: (kind: 'image' | 'audio', megabytes: number) => `An ${kind === 'image' ? 'image' : 'audio clip'} of ${megabytes} MB is too large to show here.`,
    notBase64: (kind: 'image' | 'audio') => `An ${kind === 'image' ? 'image' : 'audio clip'} is not valid base64, so it is not shown.`,
    /** A block's text alternative when it has none of its own: the result's title and its number. */
    image: (title: string, n: number) => `${title}: image ${n}`,
    audio: (title: string, n: number) => `${title}: audio ${n}`,
  },
  values: {
    /** Values of arguments and results in plain words. */
    yes: 'Yes',
    no: 'No',
    none: 'none',
    seconds: (text: string) => `${text} s`,
    minutes: (minutes: string, seconds: string) => `${minutes} min ${seconds} s`,
    bytes: (text: string) => `${text} bytes`,
    kilobytes: (text: string) => `${text} KB`,
    megabytes: (text: string) => `${text} MB`,
  },
  connectors: connectorWords,
  time: {
    /** An elapsed or expected time: `0.3 s`, `4.2 s`, `2 min 05 s`. */
    duration: (ms: number) => formatDuration(ms),
  },
  slash: {
    label: 'Slash skills',
    loading: 'Loading skills…',
    noMatch: (filter: string) => `No skill matches “/${filter}”. Press Enter to send it anyway.`,
    /** Announced (politely) after the list settles: how many skills the filter leaves. */
    count: plural('en', { one: '# skill matches', other: '# skills match' }),
    noSkills: 'There are no skills to run here yet.',
    notLoaded: (reason: Reason) => `The slash skills could not be loaded: ${reason}`,
    typeFollowedBy: (skill: string) => ` Type ${skill} followed by what you want, e.g. “${skill} the last import”.`,
    dismiss: 'Dismiss',
    dismissLabel: 'Dismiss this notice',
    noNavigation: (skill: string, target: string) => `${skill} cannot go to “${target}” here: this app has not set up navigation (onNavigate).`,
    cannotConnect: (provider: string) => `This workspace cannot connect ${provider}.`,
    cannotDisconnect: (provider: string) => `This workspace cannot disconnect ${provider}.`,
    connected: (provider: string) => `Connected ${provider}.`,
    disconnected: (provider: string) => `Disconnected ${provider}.`,
    connectFailed: (provider: string, reason: Reason) => `Could not connect ${provider}: ${reason}`,
    disconnectFailed: (provider: string, reason: Reason) => `Could not disconnect ${provider}: ${reason}`,
    singleThread: (skill: string) => `${skill} cannot start a new thread here: this app keeps a single thread.`,
  },
  status: {
    /** The row under the transcript when the next message uses something else than the defaults. */
    label: 'Next message uses',
    harness: 'Harness',
    agent: 'Agent',
    model: 'Model',
    default: 'default',
  },
  threads: {
    label: 'Thread',
    newThread: 'New thread',
    numbered: (n: number) => `Thread ${formatCount('en', n)}`,
    /** A sub-thread in the switcher, after its parent. */
    subThread: (name: string, parent: string) => `↳ ${name} (sub-thread of “${parent}”)`,
  },
  threadList: {
    /** The header's button that shows and hides the thread list. */
    toggle: 'All threads',
    /** The panel's accessible name. */
    label: 'Threads',
    search: 'Search threads',
    showArchived: 'Show archived',
    /** The list's accessible name. */
    list: 'Your threads',
    archivedList: 'Archived threads',
    newThread: 'New thread',
    loading: 'Loading threads…',
    loadFailed: (reason: Reason) => `The threads could not be loaded: ${reason}.`,
    retry: 'Try again',
    empty: 'No threads yet. Send a message to start one.',
    emptyArchived: 'No archived threads.',
    noResults: (search: string) => `No threads match “${search}”.`,
    /** The live region after a load: how many threads are listed. */
    count: plural('en', { one: '# thread', other: '# threads' }),
    /** When "Show more" has more to bring. */
    countMore: plural('en', { one: '# thread shown, more below', other: '# threads shown, more below' }),
    more: 'Show more',
    untitled: 'Untitled thread',
    /** After the title of the thread the surface shows. */
    shown: 'shown',
    lastActivity: (ms: number) => new Date(ms).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }),
    rename: 'Rename',
    renameThread: (title: string) => `Rename “${title}”`,
    archive: 'Archive',
    archiveThread: (title: string) => `Archive “${title}”`,
    unarchive: 'Unarchive',
    unarchiveThread: (title: string) => `Unarchive “${title}”`,
    delete: 'Delete',
    deleteThread: (title: string) => `Delete “${title}”`,
    nameLabel: 'Thread name',
    nameNeeded: 'Give the thread a name.',
    save: 'Save',
    cancel: 'Cancel',
    confirmTitle: (title: string) => `Delete “${title}”?`,
    confirmBody: 'Its messages are removed for good, in every browser you use. This cannot be undone.',
    confirmDelete: 'Delete thread',
    renamed: (title: string) => `Renamed to “${title}”.`,
    archived: (title: string) => `Archived “${title}”.`,
    unarchived: (title: string) => `Unarchived “${title}”.`,
    deleted: (title: string) => `Deleted “${title}”.`,
    failed: (reason: Reason) => `Not done: ${reason}.`,
    /** The keyboard hint under the list. */
    keys: 'Arrow keys move, Enter opens, F2 renames, Delete deletes.',
  },
  picker: {
    /** Why a model cannot be picked on a workspace that answers with the offline model. */
    unavailable: 'Not available here: it needs a server with an Anthropic API key, and this workspace answers with the offline model.',
    refused: (name: string) => `Not changed: ${name} cannot run here. It needs a server with an Anthropic API key, and this workspace answers with the offline model.`,
    notChanged: (reason: Reason) => `Not changed: ${reason}.`,
    current: ' (current)',
    unavailableMark: ' (unavailable)',
    filter: 'Filter…',
    filterLabel: (title: string) => `Filter: ${title}`,
    notLoaded: (reason: Reason) => `The list could not be loaded: ${reason}`,
    loading: 'Loading…',
    noMatch: (filter: string) => `Nothing matches “${filter}”.`,
    cancel: 'Cancel',
    close: 'Close',
  },
  panel: {
    loading: 'Loading…',
    notLoaded: (skill: string, path: string, reason: Reason) => `${skill} could not load ${path}: ${reason}`,
    missing: (skill: string, path: string) => `${skill} points at ${path}, which is not here.`,
    close: 'Close',
  },
};

/** Every word the kit shows, by part (see `defaultMessages` for the English ones). */
export type ChatSurfaceMessages = typeof defaultMessages;

/**
 * Some of the kit's words: any part, any message of it; what is left out stays as the defaults
 * (or as an enclosing surface's words). A key the kit does not have is a type error.
 * @example
 * const messages: MessagesOverride = { composer: { placeholder: 'Frag etwas…', send: 'Senden' } };
 */
export type MessagesOverride = { [Part in keyof ChatSurfaceMessages]?: Partial<ChatSurfaceMessages[Part]> };
