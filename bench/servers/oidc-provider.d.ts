// oidc-provider ships no types; the bench peer uses a handful of its documented entry points.
declare module "oidc-provider" {
  const Provider: any;
  export default Provider;
}

declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  const MemoryAdapter: any;
  export default MemoryAdapter;
}
