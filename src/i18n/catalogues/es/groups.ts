import type { groups as source } from "../en/groups.js";
import type { Messages } from "../types.js";

export const groups: Messages<typeof source> = {
  invalidGid:
    "Nombre de grupo «{{gid}}» no válido: de 1 a 64 caracteres, sin comas, sin caracteres de control y sin espacios al principio ni al final.",
  groupExists: "El grupo «{{gid}}» ya existe.",
  noSuchGroup: "El grupo «{{gid}}» no existe.",
  adminUndeletable: "El grupo «admin» contiene a los administradores y no se puede eliminar.",
  groupInUse: "El grupo «{{gid}}» está permitido en la(s) aplicación(es) {{clients}}: cambie primero sus grupos permitidos.",
  lastAdmin: "El usuario «{{uid}}» es el último administrador: haga primero administrador a otro usuario.",
  unknownGroups: "Grupo(s) desconocido(s): {{gids}}; créelos primero (./occ group:add).",
  title: "Grupos",
  intro:
    "Los grupos deciden quién puede usar una aplicación (sus grupos permitidos) y un sitio detrás de la autenticación delegada. Los miembros de admin son los administradores.",
  name: "Grupo",
  members: "Miembros",
  none: "Todavía no hay grupos.",
  create: "Crear grupo",
  newGid: "Nombre del grupo",
  newDisplayName: "Nombre visible (opcional)",
  delete: "Eliminar",
  deleteConfirm: "¿Eliminar el grupo «{{gid}}»? Sus miembros permanecen; solo dejan el grupo.",
  manage: "Miembros",
  membersOf: "Miembros de {{gid}}",
  noMembers: "Sin miembros.",
  addMember: "Añadir miembro",
  memberUid: "Nombre de usuario",
  remove: "Quitar",
  created: "Grupo «{{gid}}» creado.",
  deleted: "Grupo «{{gid}}» eliminado.",
  added: "«{{uid}}» añadido a «{{gid}}».",
  alreadyMember: "«{{uid}}» ya es miembro de «{{gid}}».",
  removed: "«{{uid}}» quitado de «{{gid}}».",
  notMember: "«{{uid}}» no es miembro de «{{gid}}».",
  notAvailableTitle: "Aplicación no disponible",
  notAvailable:
    "La aplicación {{name}} no está disponible para usted. Si la necesita, pida a su administrador que le añada a uno de sus grupos.",
  notAvailableHere:
    "Esta aplicación no está disponible para usted. Si la necesita, pida a su administrador que le añada a uno de sus grupos.",
  allowedGroups: "Grupos permitidos (separados por comas; vacío: todos)",
  allowedGroupsShort: "Grupos",
  removeNamed: "Quitar «{{uid}}» de «{{gid}}»",
};
