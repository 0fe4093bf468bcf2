import Foundation

/// A decoder of `Decodable` values from `Data`: what `decode(type:decoder:)` takes.
/// `JSONDecoder` and `PropertyListDecoder` are ones.
public protocol DataDecoder {
    /// The value of type `type` encoded in `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Each element decoded by `decoder` as a `type`; a decoding error ends the sequence.
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
