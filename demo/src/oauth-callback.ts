/** The OAuth redirect URI page: hands the authorization response back to the page that asked. */
import { completeAuthorizationCallback } from '../../components/auth/callback.js';

completeAuthorizationCallback();
