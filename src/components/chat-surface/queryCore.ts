// React Query's client, a chunk of its own: the assembled surface makes its client when a part
// first runs a node query (see ./SurfaceQueryClient), not with the page.
export { QueryClient } from '@tanstack/react-query';
