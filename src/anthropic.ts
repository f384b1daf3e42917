// The Anthropic entry: the model driver for the Messages API. Needs the optional peer @anthropic-ai/sdk.
export { createAnthropicDriver } from './runtime/anthropic/driver';
export type { AnthropicDriverOptions } from './runtime/anthropic/driver';
export type { ThinkingConfig } from './runtime/anthropic/request';
export type { AttachmentReader } from './runtime/model';
export type { AttachmentRef } from './runtime/events/messages';
