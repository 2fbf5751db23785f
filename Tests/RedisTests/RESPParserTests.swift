import Testing
import TestSupport
@testable import Redis

/// Parses `bytes` fed in `chunks`-sized pieces (0: all at once) and returns every value, or the error.
func parseAll(_ bytes: [UInt8], chunk: Int = 0, limits: RESPParserLimits = RESPParserLimits()) -> Result<[RESPValue], RESPParseError> {
    var parser = RESPParser(limits: limits)
    var values: [RESPValue] = []
    var offset = 0
    repeat {
        let end = chunk == 0 ? bytes.count : min(bytes.count, offset + chunk)
        parser.append(bytes[offset..<end])
        offset = end
        do {
            while let value = try parser.next() { values.append(value) }
        } catch {
            return .failure(error)
        }
    } while offset < bytes.count
    return .success(values)
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite struct RESPParserTypeTests {
    static let cases: [(String, RESPValue)] = [
        ("+OK\r\n", .simpleString(bytes("OK"))),
        ("+\r\n", .simpleString([])),
        ("-ERR unknown command\r\n", .error(bytes("ERR unknown command"))),
        (":0\r\n", .integer(0)),
        (":-42\r\n", .integer(-42)),
        (":+7\r\n", .integer(7)),
        (":9223372036854775807\r\n", .integer(.max)),
        (":-9223372036854775808\r\n", .integer(.min)),
        ("$5\r\nhello\r\n", .bulkString(bytes("hello"))),
        ("$0\r\n\r\n", .bulkString([])),
        ("$4\r\na\r\nb\r\n", .bulkString(bytes("a\r\nb"))),
        ("$-1\r\n", .null),
        ("*-1\r\n", .null),
        ("_\r\n", .null),
        ("*0\r\n", .array([])),
        ("*2\r\n$3\r\nfoo\r\n:1\r\n", .array([.bulkString(bytes("foo")), .integer(1)])),
        ("*2\r\n*1\r\n+a\r\n*0\r\n", .array([.array([.simpleString(bytes("a"))]), .array([])])),
        (",3.25\r\n", .double(3.25)),
        (",-1.5e3\r\n", .double(-1500)),
        (",1E-2\r\n", .double(0.01)),
        (",10\r\n", .double(10)),
        (",inf\r\n", .double(.infinity)),
        (",-inf\r\n", .double(-.infinity)),
        ("#t\r\n", .boolean(true)),
        ("#f\r\n", .boolean(false)),
        ("!21\r\nSYNTAX invalid syntax\r\n", .blobError(bytes("SYNTAX invalid syntax"))),
        ("=15\r\ntxt:Some string\r\n", .verbatimString(format: bytes("txt"), text: bytes("Some string"))),
        ("=4\r\nmkd:\r\n", .verbatimString(format: bytes("mkd"), text: [])),
        ("(3492890328409238509324850943850943825024385\r\n", .bigNumber(bytes("3492890328409238509324850943850943825024385"))),
        ("(-12\r\n", .bigNumber(bytes("-12"))),
        ("%2\r\n+first\r\n:1\r\n+second\r\n:2\r\n", .map([RESPPair(key: .simpleString(bytes("first")), value: .integer(1)),
                                                        RESPPair(key: .simpleString(bytes("second")), value: .integer(2))])),
        ("%0\r\n", .map([])),
        ("~3\r\n+a\r\n:1\r\n#f\r\n", .set([.simpleString(bytes("a")), .integer(1), .boolean(false)])),
        (">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$3\r\nhey\r\n", .push([.bulkString(bytes("message")), .bulkString(bytes("ch")), .bulkString(bytes("hey"))])),
        // An attribute is dropped: the reply is the value after it.
        ("|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n*1\r\n:2\r\n", .array([.integer(2)])),
        // Nested attribute inside an aggregate does not count as an element.
        ("*2\r\n:1\r\n|1\r\n+k\r\n+v\r\n:2\r\n", .array([.integer(1), .integer(2)])),
        ("|0\r\n+x\r\n", .simpleString(bytes("x"))),
    ]

    @Test(arguments: 0..<cases.count)
    func everyTypeParsesWholeAndAtEverySplit(_ index: Int) throws {
        let (text, expected) = Self.cases[index]
        let input = bytes(text)
        #expect(try parseAll(input).get() == [expected], "\(text.debugDescription)")
        for split in 1..<input.count {
            var parser = RESPParser()
            parser.append(input[..<split])
            var values: [RESPValue] = []
            while let value = try parser.next() { values.append(value) }
            parser.append(input[split...])
            while let value = try parser.next() { values.append(value) }
            #expect(values == [expected], "\(text.debugDescription) split at \(split)")
        }
        #expect(try parseAll(input, chunk: 1).get() == [expected])
    }

    @Test func nanIsADouble() throws {
        let values = try parseAll(bytes(",nan\r\n")).get()
        guard case .double(let value) = values.first else { Issue.record("not a double"); return }
        #expect(value.isNaN)
    }

    @Test func aStreamOfValuesComesOutInOrderWhateverTheChunkSize() throws {
        let text = Self.cases.map(\.0).joined()
        let expected = Self.cases.map(\.1)
        for chunk in [0, 1, 2, 3, 5, 7, 13, 64] {
            #expect(try parseAll(bytes(text), chunk: chunk).get() == expected, "chunk \(chunk)")
        }
    }

    @Test func aValueIsReturnedOnlyWhenComplete() throws {
        var parser = RESPParser()
        parser.append(bytes("*2\r\n$3\r\nfoo\r\n"))
        #expect(try parser.next() == nil)
        #expect(parser.isMidValue)
        parser.append(bytes("$3\r\nba"))
        #expect(try parser.next() == nil)
        parser.append(bytes("r\r\n+next\r\n"))
        #expect(try parser.next() == .array([.bulkString(bytes("foo")), .bulkString(bytes("bar"))]))
        #expect(try parser.next() == .simpleString(bytes("next")))
        #expect(try parser.next() == nil)
        #expect(!parser.isMidValue)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func aLargeBulkStringArrivingInSmallPiecesIsCopiedOnce() throws {
        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var input = bytes("$\(payload.count)\r\n")
        input += payload
        input += bytes("\r\n")
        #expect(try parseAll(input, chunk: 4096).get() == [.bulkString(payload)])
    }

    @Test func seededRandomValuesRoundTripThroughTheEncoder() throws {
        var random = SplitMix64(seed: 0x5EED)
        for round in 0..<300 {
            let value = Self.randomValue(&random, depth: 0)
            var encoded: [UInt8] = []
            RESPEncoder.append(value, to: &encoded)
            let chunk = Int(random.next() % 9)
            #expect(try parseAll(encoded, chunk: chunk).get() == [value], "round \(round)")
        }
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> RESPValue {
        func text() -> [UInt8] { (0..<Int(random.next() % 12)).map { _ in UInt8(97 + random.next() % 26) } }
        func blob() -> [UInt8] { (0..<Int(random.next() % 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let kinds: UInt64 = depth >= 4 ? 10 : 14
        switch random.next() % kinds {
        case 0: return .simpleString(text())
        case 1: return .error(text())
        case 2: return .integer(Int64(bitPattern: random.next()))
        case 3: return .bulkString(blob())
        case 4: return .null
        case 5: return .double(Double(Int64(bitPattern: random.next() % 1_000_000)) / 64)
        case 6: return .boolean(random.next() % 2 == 0)
        case 7: return .blobError(blob())
        case 8: return .verbatimString(format: bytes("txt"), text: blob())
        case 9: return .bigNumber(bytes(String(random.next())))
        case 10: return .array((0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) })
        case 11: return .set((0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) })
        case 12: return .push((0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            return .map((0..<Int(random.next() % 3)).map { _ in
                RESPPair(key: randomValue(&random, depth: depth + 1), value: randomValue(&random, depth: depth + 1))
            })
        }
    }
}

@Suite struct RESPParserRejectionTests {
    static let hostile: [(String, RESPParseError.Kind)] = [
        ("?\r\n", .unknownType(UInt8(ascii: "?"))),
        ("\r\n", .unknownType(13)),
        ("+OK\n", .badLineEnding),
        ("+O\rK\r\n", .badLineEnding),
        (":12a\r\n", .invalidNumber),
        (":\r\n", .invalidNumber),
        (":-\r\n", .invalidNumber),
        (":9223372036854775808\r\n", .invalidNumber),
        (":-9223372036854775809\r\n", .invalidNumber),
        ("$-2\r\n", .invalidNumber),
        ("$+3\r\nabc\r\n", .invalidNumber),
        ("$\r\n", .invalidNumber),
        ("$99999999999999999999999\r\n", .bulkTooLong),
        ("$3\r\nabcd\r\n", .badLineEnding),
        ("$3\r\nabc\n\r", .badLineEnding),
        ("*-2\r\n", .invalidNumber),
        ("*99999999999999999999\r\n", .aggregateTooLarge),
        ("%-1\r\n", .invalidNumber),
        ("!-1\r\n", .invalidNumber),
        ("$?\r\n", .streamedNotSupported),
        ("*?\r\n", .streamedNotSupported),
        ("_x\r\n", .invalidNull),
        ("#x\r\n", .invalidBoolean),
        ("#tt\r\n", .invalidBoolean),
        (",1.\r\n", .invalidDouble),
        (",.5\r\n", .invalidDouble),
        (",1e\r\n", .invalidDouble),
        (",infinity\r\n", .invalidDouble),
        (",\r\n", .invalidDouble),
        ("(\r\n", .invalidBigNumber),
        ("(12.5\r\n", .invalidBigNumber),
        ("=3\r\ntxt\r\n", .invalidVerbatim),
        ("=5\r\ntxtxy\r\n", .invalidVerbatim),
    ]

    @Test(arguments: 0..<hostile.count)
    func hostileInputIsRejectedWithAReasonAtEveryChunkSize(_ index: Int) {
        let (text, kind) = Self.hostile[index]
        for chunk in [0, 1, 2, 3] {
            guard case .failure(let error) = parseAll(bytes(text), chunk: chunk) else {
                Issue.record("\(text.debugDescription) accepted (chunk \(chunk))")
                continue
            }
            #expect(error.kind == kind, "\(text.debugDescription) chunk \(chunk)")
            #expect(error.offset == 0)
        }
    }

    @Test func theErrorSticksAndNamesTheOffsetInTheStream() {
        var parser = RESPParser()
        parser.append(bytes("+OK\r\n:1\r\n:x\r\n"))
        #expect((try? parser.next()) == .simpleString(bytes("OK")))
        #expect((try? parser.next()) == .integer(1))
        #expect(throws: RESPParseError(.invalidNumber, offset: 9)) { try parser.next() }
        parser.append(bytes("+fine\r\n"))
        #expect(throws: RESPParseError(.invalidNumber, offset: 9)) { try parser.next() }
        #expect(RESPParseError(.invalidNumber, offset: 9).description.contains("byte 9"))
    }

    @Test func nestingDeeperThanTheLimitIsRefusedWithoutRecursion() throws {
        let limits = RESPParserLimits(maxDepth: 3)
        #expect(try parseAll(bytes("*1\r\n*1\r\n*1\r\n:1\r\n"), limits: limits).get() == [.array([.array([.array([.integer(1)])])])])
        guard case .failure(let error) = parseAll(bytes("*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n"), limits: limits) else {
            Issue.record("accepted"); return
        }
        #expect(error.kind == .nestingTooDeep)
        #expect(error.offset == 12)
        // A million nested arrays at the default limit: refused at depth 33, no stack overflow.
        let deep = [UInt8](repeating: 0, count: 0) + Array(repeating: bytes("*1\r\n"), count: 1_000_000).joined()
        guard case .failure(let deepError) = parseAll(deep) else { Issue.record("accepted"); return }
        #expect(deepError.kind == .nestingTooDeep)
    }

    @Test func sizesAboveTheLimitsAreRefusedBeforeAnyPayloadArrives() {
        let limits = RESPParserLimits(maxBulkBytes: 10, maxAggregateCount: 4, maxLineBytes: 8)
        #expect((try? parseAll(bytes("$10\r\n0123456789\r\n"), limits: limits).get()) == [.bulkString(bytes("0123456789"))])
        var parser = RESPParser(limits: limits)
        parser.append(bytes("$11\r\n"))
        #expect(throws: RESPParseError(.bulkTooLong, offset: 0)) { try parser.next() }
        #expect(throws: RESPParseError(.invalidVerbatim, offset: 0)) { try parseAll(bytes("=2\r\n"), limits: limits).get() }
        #expect((try? parseAll(bytes("%4\r\n"), limits: limits).get()) == [])
        #expect(throws: RESPParseError(.aggregateTooLarge, offset: 0)) { try parseAll(bytes("~5\r\n"), limits: limits).get() }
        #expect((try? parseAll(bytes("+12345678\r\n"), limits: limits).get()) == [.simpleString(bytes("12345678"))])
        // A line over the limit is refused as soon as the limit is passed, CRLF or not.
        var long = RESPParser(limits: limits)
        long.append(bytes("+123456789"))
        #expect(throws: RESPParseError(.lineTooLong, offset: 0)) { try long.next() }
    }

    @Test func randomBytesNeverTrapAndEndInAValueAnErrorOrAWait() {
        var random = SplitMix64(seed: 42)
        let alphabet = bytes("+-:$*_,#!=(%~>|?\r\n0123456789-.aeinft ")
        for _ in 0..<5_000 {
            let length = Int(random.next() % 40)
            let input = (0..<length).map { _ in
                random.next() % 4 == 0 ? UInt8(truncatingIfNeeded: random.next()) : alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            let whole = parseAll(input, limits: RESPParserLimits(maxDepth: 4, maxBulkBytes: 16, maxAggregateCount: 8, maxLineBytes: 12))
            let bytewise = parseAll(input, chunk: 1, limits: RESPParserLimits(maxDepth: 4, maxBulkBytes: 16, maxAggregateCount: 8, maxLineBytes: 12))
            switch (whole, bytewise) {
            case (.success(let a), .success(let b)): #expect(a.count == b.count)
            case (.failure(let a), .failure(let b)): #expect(a == b)
            default: Issue.record("outcome depends on the split: \(input)")
            }
        }
    }
}

@Suite struct RESPEncoderTests {
    @Test func commandsAreArraysOfBulkStrings() {
        var out: [UInt8] = []
        RedisCommand("SET", "k", [0, 13, 10] as [UInt8], "PX", 1500).encoded(into: &out)
        #expect(out == bytes("*5\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\n") + [0, 13, 10] + bytes("\r\n$2\r\nPX\r\n$4\r\n1500\r\n"))
    }

    @Test func aCommandDescriptionNeverShowsItsArguments() {
        let command = RedisCommand("hello", 3, "AUTH", "user", "s3cret")
        #expect(command.name == "HELLO")
        #expect(command.description == "HELLO (4 arguments)")
    }
}
