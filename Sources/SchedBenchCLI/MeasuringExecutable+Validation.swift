import ArgumentParser
import BenchModel
import BenchWorkflows

extension MeasuringExecutable {
    /// `describe()`'s registry, for a command's `validate()`. ArgumentParser reports an
    /// error thrown there with status 64 only when it is a `ValidationError`, so the
    /// measuring executable's refusal of what it was started with (a seeded bug it does not
    /// have, say: `BenchError.usage`) becomes one; anything else stays as it is.
    func describedForValidation() throws -> RegistryDescription {
        do {
            return try describe().description
        } catch BenchError.usage(let problem) {
            throw ValidationError(problem)
        }
    }
}
