// A multipart/form-data request body built by hand (RFC 7578): the suites send exactly the bytes a case
// names, whatever a form library would choose.
/** A multipart/form-data body with the given file parts. */
export function multipart(
  parts: { field?: string; name: string; type?: string; content: string | Uint8Array }[],
  boundary = 'conformBoundary7MA4YWxkTrZu0gW',
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.field ?? 'file'}"; filename="${p.name}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.from(p.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
