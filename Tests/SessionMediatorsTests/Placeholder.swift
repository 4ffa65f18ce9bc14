import Testing
@testable import SessionMediators
