import { useCallback, useEffect, useId, useMemo, useState, useSyncExternalStore, type ComponentPropsWithRef } from 'react';
import { useControllableState } from '../../hooks/useControllableState';
import { useSend } from '../../hooks/useActions';
import { useChatSurface } from '../../hooks/context';
import { useOptionalMessageQueue } from '../queue/context';
import { QUEUE_LIMIT } from '../queue/queueStore';
import { useOptionalSlash } from '../slash/context';
import { ComposerContext } from './context';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';
import { noteUserAction } from '../../hooks/userAction';
import { createDraftStore, readyIds, revokePreviews, type DraftFile, type DraftFiles, type DraftStore } from '../attachments/draft';
import { loadAttachParts } from '../attachments/loadAttachParts';
import type { AttachmentsApi } from '../../workspace/types';
import type { ChatSurfaceMessages } from '../messages/defaults';

export interface ComposerRootProps extends Omit<ComponentPropsWithRef<'form'>, 'onSubmit'> {
  /** The draft, when the host controls it. */
  value?: string;
  /** The first draft when uncontrolled. @default '' */
  defaultValue?: string;
  /** Told of every edit of the draft. */
  onValueChange?: (value: string) => void;
}

/**
 * The message form. Sending clears the draft; a failed send puts it back and says why.
 * Inside `<Slash.Root>` a `/word …` draft runs that slash skill instead of being sent as it is.
 * @example
 * <Composer.Root><Composer.Input /><Composer.Send /></Composer.Root>
 */
export function ComposerRoot({ value: valueProp, defaultValue = '', onValueChange, children, ...props }: ComposerRootProps) {
  const [value, setValue] = useControllableState({ value: valueProp, defaultValue, onChange: onValueChange });
  const [error, setError] = useState<string | null>(null);
  const send = useSend();
  const slash = useOptionalSlash();
  // Each surface's composer form is a landmark of its own name when several share a page.
  const { label: surfaceLabel, store, workspace, threadId } = useChatSurface();
  const queued = useOptionalMessageQueue();
  const messages = useMessages();
  const m = messages.composer;
  const surfaceDefault = messages.surface.label;
  const inputId = useId();
  const errorId = useId();
  // Composer.Dictate puts its stop here: sending, and Escape in the box, stop listening.
  const [dictation] = useState(() => ({ stop: () => false }));
  const [chips] = useState(createDraftStore);
  const attachments = useDraftFiles(workspace.attachments, threadId, messages.attachments, chips);
  const waitId = useId();

  const submit = useCallback(
    (override?: string) => {
      const draft = override ?? value;
      const text = draft.trim();
      if (!text) return;
      dictation.stop();
      setError(null);
      const files = attachments?.files ?? [];
      if (files.some((f) => f.status === 'uploading')) return setError(messages.attachments.waitUploads);
      const ids = readyIds(files);
      // While a reply runs, or messages already wait, a message waits its turn (a slash skill runs at once).
      if (queued && !text.startsWith('/') && (store.getState().thread.activeTurn !== null || queued.queue.getState().items.length > 0)) {
        if (ids.length) return setError(messages.attachments.waitReply);
        if (queued.queue.getState().items.length >= QUEUE_LIMIT) return setError(messages.queue.full(QUEUE_LIMIT));
        queued.queue.add(text);
        setValue('');
        return;
      }
      setValue('');
      let done: Promise<void>;
      // The chips go with a message (not with a slash skill's run): they leave the composer, and come back if it fails.
      let sent: readonly DraftFile[] = [];
      try {
        const bySlash = slash?.run(text) ?? null;
        if (bySlash) done = bySlash;
        else if (ids.length && attachments) {
          sent = chips.get();
          chips.set(() => []);
          noteUserAction(store);
          done = workspace.send({ threadId, text, attachments: ids });
        } else done = send(text);
      } catch (reason) {
        done = Promise.reject(reason);
      }
      if (sent.length) done.then(() => revokePreviews(sent), () => chips.set((now) => [...sent, ...now]));
      done.catch((reason: unknown) => {
        setValue(draft);
        const said = reasonOf(reason, messages).replace(/\.$/, '');
        setError(m.notSent(said));
      });
    },
    [value, setValue, send, slash, m, messages, queued, store, dictation, attachments, workspace, threadId, chips],
  );

  const context = useMemo(
    () => ({ value, setValue, submit, error, inputId, errorId, dictation, attachments, waitId }),
    [value, setValue, submit, error, inputId, errorId, dictation, attachments, waitId],
  );
  const uploading = attachments?.files.some((f) => f.status === 'uploading') ?? false;
  return (
    <ComposerContext.Provider value={context}>
      <form
        aria-label={surfaceLabel && surfaceLabel !== surfaceDefault ? m.labelOf(surfaceLabel) : m.label}
        {...props}
        data-part="composer"
        data-state={value.trim() ? 'ready' : 'empty'}
        onPaste={(event) => {
          props.onPaste?.(event);
          // Files from the clipboard (a screenshot, a copied file) become chips; pasted text still goes in the box.
          const pasted = [...(event.clipboardData?.files ?? [])];
          if (!attachments || !pasted.length || event.defaultPrevented) return;
          if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
          attachments.add(pasted);
        }}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {children}
        {uploading ? (
          <p id={waitId} data-part="composer-wait">
            {messages.attachments.waitUploads}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} role="alert" data-part="composer-error">
            {error}
          </p>
        ) : null}
      </form>
    </ComposerContext.Provider>
  );
}
ComposerRoot.displayName = 'Composer.Root';

/**
 * The composer's files, when the workspace takes them (null otherwise: no Attach button, no
 * paste or drop of files). The upload code and the chips load with the first file.
 */
function useDraftFiles(api: AttachmentsApi | undefined, threadId: string, words: ChatSurfaceMessages['attachments'], draft: DraftStore): DraftFiles | null {
  const [uploads] = useState(() => new Map<string, AbortController>());
  const files = useSyncExternalStore(draft.subscribe, draft.get, draft.get);
  // Leaving the composer stops what still goes up and lets go of the thumbnails.
  useEffect(
    () => () => {
      for (const controller of uploads.values()) controller.abort();
      revokePreviews(draft.get());
    },
    [draft, uploads],
  );
  return useMemo(() => {
    if (!api) return null;
    const env = { api, threadId, get: draft.get, set: draft.set, words, uploads };
    const run = (use: (parts: Awaited<ReturnType<typeof loadAttachParts>>) => void) =>
      void loadAttachParts().then(use, (error: unknown) => console.warn('[chatsurface] The attachment code could not be loaded.', error));
    return { files, add: (list) => run((p) => p.addFiles(env, list)), remove: (key) => run((p) => p.removeFile(env, key)) };
  }, [api, threadId, draft, files, words, uploads]);
}
