// The AI assistant's texts.
// One definition of each text; src/shared/texts.ts re-exports this file.

/**
 * The assistant's texts the spec leaves open (server errors and the popup's own words); chosen in
 * docs/decisions/feedback.md.
 */
export const AI_TEXT = {
  notConfigured: 'The AI assistant is not configured on this server.',
  notConfiguredHint:
    'To connect one, an administrator sets MOMENTUM_AI_URL (an OpenAI-compatible chat endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama), MOMENTUM_AI_MODEL (e.g. llama3.2) and, when the service needs one, MOMENTUM_AI_KEY, then restarts the server. See docs/operating/assistant.md.',
  noHost: 'no AI service',
  noModel: 'no model configured',
  unreachable: 'The AI service cannot be reached',
  timeout: 'The AI service did not answer in time',
  badReply: 'The AI service sent a reply that is not a chat completion',
  upstreamStatus: (status: number, detail: string) =>
    `The AI service answered ${status}${detail ? `: ${detail}` : ''}`,
  title: 'AI Assistant',
  send: 'Send',
  clear: 'Clear conversation',
  close: 'Close',
  typing: 'The assistant is typing',
  empty: 'Ask a question about the console or the data you are looking at.',
  messagesName: 'messages',
} as const
