// Hands a file the page made (or fetched with its token) to the browser as a download.
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the time the click returns; the URL can go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
