/** The image kinds an avatar may be, recognised by their first bytes. */
const SIGNATURES: Array<{ type: string; extension: string; magic: number[] }> = [
  { type: "image/png", extension: "png", magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: "image/jpeg", extension: "jpeg", magic: [0xff, 0xd8, 0xff] },
];

/** PNG or JPEG, recognised by its first bytes (never by a file name or a claimed type). */
export function avatarType(bytes: Buffer): { type: string; extension: string } | undefined {
  return SIGNATURES.find((s) => s.magic.every((byte, i) => bytes[i] === byte));
}

/** The file extension an avatar stored as `contentType` is served under (png for an unknown type). */
export function avatarExtensionOf(contentType: string): string {
  return SIGNATURES.find((s) => s.type === contentType)?.extension ?? "png";
}
