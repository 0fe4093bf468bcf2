import Glibc

/// The system call a thread of this process is blocked in, from
/// `/proc/self/task/<tid>/syscall` (Linux). Costs one open and read of a small file.
enum BlockingSyscall {
    /// The number of the system call thread `tid` is blocked in, or nil when it runs, is in
    /// none, or is gone.
    static func number(ofThread tid: pid_t) -> Int? {
        guard let file = fopen("/proc/self/task/\(tid)/syscall", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return number(inLine: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The system call number a line of a `syscall` file starts with. The line reads
    /// `running` while the thread runs, and starts with `-1` when it is blocked outside a
    /// system call.
    static func number(inLine line: String) -> Int? {
        guard let number = line.split(separator: " ", maxSplits: 1).first.flatMap({ Int($0) }), number >= 0 else { return nil }
        return number
    }
}
