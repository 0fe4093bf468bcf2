import BenchChild
import BenchModel
import CProcess
import Foundation

/// The child's side of the child protocol (`ChildRequest`): what `<executable> _child`
/// runs. Reads the request from standard input, runs it, and answers on
/// `ChildChannel.replyDescriptor` with events and one reply. Call on the main thread:
/// cases run on a driver thread while the main thread drains the main queue
/// (`MainThreadDriver`).
package enum ChildService {
    /// Serves one request and returns once the reply is written. A child must never outlive
    /// its parent, so this first asks for SIGKILL when the parent dies.
    package static func serve() {
        _ = schedbench_die_with_parent(SIGKILL)
        let output = FileHandle(fileDescriptor: ChildChannel.replyDescriptor, closeOnDealloc: false)
        let stream = MessageStream(output)
        let provenance = Provenance.current()
        let request: ChildRequest
        do {
            request = try ChildMessage.decoder().decode(ChildRequest.self, from: FileHandle.standardInput.readDataToEndOfFile())
        } catch {
            stream.send(.reply(ChildReply(provenance: provenance, failure: .unreadable(path: "<child request>", problem: "\(error)"))))
            return
        }
        guard request.version == ChildRequest.currentVersion else {
            stream.send(
                .reply(
                    ChildReply(
                        provenance: provenance,
                        failure: .mismatched("parent speaks child protocol \(request.version), this build \(ChildRequest.currentVersion)"))))
            return
        }
        switch request.job {
        case .describe:
            stream.send(.reply(ChildReply(provenance: provenance, description: Registry.current.description)))
        case .plan(let asked):
            do {
                stream.send(.reply(ChildReply(provenance: provenance, plan: try RunPlan(asked).expandedReply())))
            } catch {
                stream.send(.reply(ChildReply(provenance: provenance, failure: BenchError(error))))
            }
        case .stress(let scenario, let options):
            // The parent asks a scenario to stop early (Ctrl-C) with the stop signal: it ends
            // after its current iteration and answers with what it found.
            let stop = CancellationToken()
            if FaultInjection.current == .slowStressStart { Thread.sleep(forTimeInterval: 1) }
            signal(ChildChannel.stopSignal, SIG_IGN)
            let stopRequest = DispatchSource.makeSignalSource(signal: ChildChannel.stopSignal, queue: .global())
            stopRequest.setEventHandler { _ = stop.cancel() }
            stopRequest.resume()
            defer { stopRequest.cancel() }
            let result = MainThreadDriver.run { StressRunner.run(scenario, options: options, observer: stream, cancellation: stop) }
            stream.send(.reply(ChildReply(provenance: provenance, stress: result)))
        case .cases, .counting:
            let outcomes = MainThreadDriver.run { handle(request, observer: stream) }
            stream.send(.reply(ChildReply(provenance: provenance, outcomes: outcomes)))
        }
    }

    /// Runs a `cases` or `counting` request in this process.
    static func handle(_ request: ChildRequest, observer: any BenchObserver) -> [ChildReply.CaseOutcome] {
        switch request.job {
        case .cases:
            let run: BenchRun
            do {
                run = try BenchRun(cases: request.cases, options: request.options, observer: observer)
            } catch {
                return request.cases.map { .init(benchCase: $0, error: BenchError(error)) }
            }
            return run.execute().cases.map { outcome in
                switch outcome.result {
                case .success(let result): return .init(benchCase: outcome.benchCase, result: result)
                case .failure(let error): return .init(benchCase: outcome.benchCase, error: error)
                }
            }
        case .counting(let counting):
            // One trial per case, in order; a case that follows the same case at another size
            // (the instruction count's second trial) is warm already.
            let runner = CaseRunner(options: request.options)
            return request.cases.enumerated().map { index, benchCase in
                observer.benchEvent(.trialStarted(benchCase, trial: TrialRecord.countingTrial, of: request.options.trials))
                var previous = index > 0 ? request.cases[index - 1] : nil
                previous?.events = benchCase.events
                do {
                    let (result, operations) = try runner.runCountingOnly(counting, benchCase, index: index, warm: previous == benchCase)
                    return .init(benchCase: benchCase, result: result, operations: operations)
                } catch {
                    return .init(benchCase: benchCase, error: BenchError(error))
                }
            }
        case .describe, .plan, .stress:
            preconditionFailure("\(request.job) is served by serve() itself")
        }
    }
}

/// Writes child-protocol messages, one JSON line each; also the observer the child's run
/// reports to, so its events reach the parent as they happen.
private final class MessageStream: BenchObserver, Sendable {
    /// The descriptor and the encoder, used by one message at a time.
    private let writer: Locked<(output: FileHandle, encoder: JSONEncoder)>

    init(_ output: FileHandle) { writer = Locked((output, ChildMessage.encoder())) }

    func benchEvent(_ event: BenchEvent) { send(.event(event)) }

    func send(_ message: ChildMessage) {
        writer.withLock { writer in
            guard var line = try? writer.encoder.encode(message) else { return }
            line.append(UInt8(ascii: "\n"))
            // A parent that went away ends this process through the parent-death signal.
            try? writer.output.write(contentsOf: line)
        }
    }
}
