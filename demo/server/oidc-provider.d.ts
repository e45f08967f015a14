/**
 * The part of oidc-provider's API the protected demo uses (the package ships no
 * types). Loose on purpose: configuration objects are passed through as is.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Interaction {
    uid: string;
    params: Record<string, unknown>;
    grantId?: string;
  }
  interface Grant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }
  interface AccessToken {
    aud?: string | string[];
    scope?: string;
    iat: number;
    isExpired: boolean;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: unknown);
    static errors: { InvalidTarget: new (description?: string) => Error };
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: unknown, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    Grant: { new (properties: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    Client: { find(id: string): Promise<{ clientName?: string } | undefined> };
    AccessToken: { find(token: string): Promise<AccessToken | undefined> };
  }
}
