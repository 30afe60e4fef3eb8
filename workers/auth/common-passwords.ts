// The most common passwords of 8+ characters in public breach corpora, plus school-themed ones
// a teacher might reach for. Refused outright; otherwise no composition rules (NIST 800-63B).
const COMMON = `
password 12345678 123456789 1234567890 password1 password12 password123 passw0rd qwertyuiop qwerty123
qwertyui qwerty12 11111111 00000000 88888888 12341234 87654321 987654321 11223344 12121212 123123123
iloveyou iloveyou1 sunshine princess football baseball basketball welcome1 welcome123 abc12345
abcd1234 letmein1 letmeinnow trustno1 superman whatever starwars computer michelle jennifer
corvette mercedes asdfghjkl asdfasdf zaq12wsx 1q2w3e4r 1q2w3e4r5t 1qaz2wsx qazwsxedc monkey123
dragon123 shadow123 master123 freedom1 charlie1 liverpool chelsea1 arsenal1 pokemon1 butterfly
jessica1 ashley123 michael1 babygirl1 lovely123 teacher1 teacher12 teacher123 teachers school123
school2024 school2025 school2026 student1 student123 classroom library1 library123 lectern1
lectern123 changeme changeme1 administrator admin123 admin1234 summer2024 summer2025 summer2026
winter2024 winter2025 spring2025 autumn2025 welcome2025 welcome2026 p@ssw0rd p@ssword password!
`;

const COMMON_PASSWORDS: ReadonlySet<string> = new Set(COMMON.split(/\s+/).filter(Boolean));

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}
