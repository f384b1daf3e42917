import { attachmentStoreSuite } from './attachmentStore.suite';
import { createMemoryAttachmentStore } from './attachmentStore';

attachmentStoreSuite('memory', () => createMemoryAttachmentStore());
