// oidc-provider ships no types; the bench peer uses a handful of its documented entry points.
declare module "oidc-provider" {
  const Provider: any;
  export default Provider;
}
