// What a handler knows about the call besides its request: the redirect chain it arrived with.
export interface CallContext {
  /** Instance IDs from `x-redirect-id` metadata, oldest first. */
  redirectIds: string[];
}

export const NO_CALL_CONTEXT: CallContext = { redirectIds: [] };
