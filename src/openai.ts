// The OpenAI-compatible entry: the model driver for Chat Completions (OpenAI, llama.cpp's server, Ollama, vLLM,
// LM Studio). Needs the optional peer openai.
export { createOpenAIDriver } from './runtime/openai/driver';
export type { OpenAIDriverOptions } from './runtime/openai/driver';
