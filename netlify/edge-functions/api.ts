// Netlify edge function on /api/* (declared in netlify.toml): the request policy in src/edge.ts,
// the same code `archive-schema serve` runs, in front of the rewrite rules and files.
import { handle } from '../../src/hosting/edge.ts';

export default (request: Request, context: { next(): Promise<Response> }): Promise<Response> => handle(request, () => context.next());
