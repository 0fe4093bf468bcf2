import BenchModel

/// A strategy as the registry holds it: its name, the axis it selects on, and one line
/// for `schedbench list`. A hand-off also has its adapter.
package struct RegisteredStrategy: Sendable {
    package var name: StrategyName
    package var axis: StrategyName.Axis
    package var summary: String
    /// Whether the `quick` suite runs it (when it does not name its strategies).
    package var inQuickSuite = true
    /// For the hand-offs (axes `baseline` and `peer`): starts the adapter for one trial.
    package var makeHandOff: (@Sendable (_ deliver: @escaping @Sendable (Item) -> Void) -> any HandOff)?
}
