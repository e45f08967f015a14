/**
 * The data of the OAuth flow (spec: basic/authorization): the metadata
 * documents it reads, the client identity and tokens it keeps, the pending
 * authorization it stores across the trip to the authorization server, the
 * context the OAuth layer ({@link OAuth}) lends each step, and the binding the
 * OAuth layer keeps per MCP endpoint. Types only, shared by the steps
 * (`./discovery.ts`, `./client-identity.ts`, `./authorize.ts`,
 * `./token-endpoint.ts`), the grants and the OAuth layer, which import nothing
 * of each other for them.
 *
 * @module
 */
import type { FetchLike } from '../transport/fetch.js';
import type { AuthStorage } from './storage.js';

/** Protected Resource Metadata (RFC 9728 §2), the fields the client reads. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  dpop_signing_alg_values_supported?: string[];
  dpop_bound_access_tokens_required?: boolean;
  [key: string]: unknown;
}

/** Authorization server metadata (RFC 8414 §2 / OpenID Discovery), the fields the client reads. */
export interface AuthorizationServerMetadata {
  issuer: string;
  /** Present (and checked) whenever the authorization code flow is used; machine-to-machine grants do without. */
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  revocation_endpoint?: string;
  scopes_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  grant_types_supported?: string[];
  dpop_signing_alg_values_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  client_id_metadata_document_supported?: boolean;
}

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A client identity at one authorization server. */
export interface ClientIdentity {
  clientId: string;
  clientSecret?: string;
  /** `private_key_jwt` only for the machine-to-machine grants (grants.ts), which sign each assertion. */
  authMethod: TokenEndpointAuthMethod | 'private_key_jwt';
  /** Where the identity came from. */
  source: 'pre-registered' | 'metadata-document' | 'dynamic-registration';
  /** The authorization server it belongs to (registrations are never used with another). */
  issuer?: string;
  /** The redirect URI a dynamic registration was made with (its storage key). */
  redirectUri?: string;
}

/** Tokens for one resource at one authorization server. */
export interface TokenSet {
  accessToken: string;
  tokenType: 'Bearer' | 'DPoP';
  refreshToken?: string;
  /** When the token was issued, in ms since the epoch. */
  issuedAt: number;
  /** Expiry time of the access token in ms since the epoch, when the server said. */
  expiresAt?: number;
  /** Scopes granted (as the token endpoint reported them, else as requested). */
  scopes: string[];
}

/** Everything needed to finish one authorization after the callback (kept under `pending:<state>`). */
export interface PendingAuthorization {
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** The validated issuer recorded before leaving (RFC 9207 check). */
  issuer: string;
  issParameterSupported: boolean;
  as: AuthorizationServerMetadata;
  client: ClientIdentity;
  /** The `resource` exactly as the Protected Resource Metadata publishes it. */
  resource: string;
  prmUrl: string;
  scopes: string[];
  dpop: boolean;
  /** ms since the epoch. */
  createdAt: number;
  /** The MCP endpoint this authorization is for. */
  resourceUrl: string;
  /** The client was registered for this very authorization (a refusal then is not a stale registration). */
  clientFresh?: boolean;
}

/** What the flow needs from the OAuth layer. */
export interface FlowContext {
  /** `fetch` without tokens (OAuth endpoints never get the MCP access token). */
  fetch: FetchLike;
  resourceUrl: URL;
  /** Absent with a machine-to-machine grant: nothing is registered or redirected then. */
  redirectUri?: string;
  storage: AuthStorage;
  /** DPoP nonces by origin (RFC 9449 §8, §9). */
  nonces: Map<string, string>;
  clientId?: string;
  clientSecret?: string;
  clientIssuer?: string;
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  clientMetadataUrl?: string;
  clientName: string;
  applicationType?: 'web' | 'native';
  signal?: AbortSignal;
  /** Register (and use) a redirect URI that names the issuer (default true; see {@link issuerRedirectUri}). */
  perIssuerRedirectUri?: boolean;
  /** Developer warnings about tolerated server faults (the OAuth layer's `onWarning`). */
  warn?: (code: string, message: string) => void;
}

/** Persisted per MCP endpoint: which authorization server and resource it is bound to. */
export interface Binding {
  issuer: string;
  resource: string;
  prmUrl: string;
  as: AuthorizationServerMetadata;
  /** Absent for a workload (JWT bearer) grant without client authentication. */
  client?: ClientIdentity;
  scopes: string[];
  /** Random id of the grant: the authorization context for private cache entries. */
  grantId: string;
  dpop: boolean;
}
