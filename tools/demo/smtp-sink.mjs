// A local SMTP server for the demos: accepts every message on 127.0.0.1:<port> and writes each one, parsed, to
// <folder>/<n>.txt (To, Subject, then the text part), so a shell session can read the links in it.
//
//   node tools/demo/smtp-sink.mjs <port> <folder>
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const [port, folder] = process.argv.slice(2);
if (!port || !folder) {
  process.stderr.write('usage: node tools/demo/smtp-sink.mjs <port> <folder>\n');
  process.exit(2);
}
let count = 0;
const server = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream).then((mail) => {
      count += 1;
      const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
      writeFileSync(join(folder, `${count}.txt`), `To: ${to}\nSubject: ${mail.subject ?? ''}\n\n${mail.text ?? ''}\n`);
      callback();
    }, callback);
  },
});
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
